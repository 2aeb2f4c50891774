import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { aptInstall } from './infra';

// The browser tests (the /docs renderer, the console) drive Debian's Chromium through playwright-core,
// which ships no browser of its own. See docs/running.md, "Browser tests".
export const CHROMIUM_PATH = '/usr/bin/chromium';

// This machine has no route to the internet: without the background-networking flags Chromium opens
// many refused connections at start, which would also pollute a "no external request" check.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Installs Debian's chromium with apt when /usr/bin/chromium is missing; a no-op otherwise. */
export function ensureChromium(): void {
  if (!existsSync(CHROMIUM_PATH)) aptInstall(['chromium']);
}

/** A headless Chromium; playwright gives it a fresh temporary profile and removes it on close. */
export async function launchChromium(): Promise<Browser> {
  ensureChromium();
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}
