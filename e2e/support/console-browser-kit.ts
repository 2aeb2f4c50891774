import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';

// What the console's browser test does in every page: open a profile, sign in, check accessibility, take the
// screenshot (docs/console.md#tests).

// Screenshots go to docs/images when UPDATE_CONSOLE_SCREENSHOTS=1 (docs/console.md#screenshots); otherwise to a
// temporary folder, so a test run leaves the work tree clean.
const SHOTS = process.env.UPDATE_CONSOLE_SCREENSHOTS === '1' ? join(__dirname, '..', '..', 'docs', 'images') : mkdtempSync(join(tmpdir(), 'sb-console-shots-'));
const AXE = require.resolve('axe-core/axe.min.js');
const PASSWORD = 'a long console password';
export const UI_TIMEOUT_MS = 60_000;

export interface ConsoleBrowser {
  /** A fresh browser profile; the CSP is bypassed only so that the test can inject axe-core. */
  openContext(): Promise<{ context: BrowserContext; page: Page }>;
  /** Every request a page made outside the gateway. */
  readonly externalRequests: string[];
}

export function consoleBrowser(browser: Browser, baseUrl: string): ConsoleBrowser {
  mkdirSync(SHOTS, { recursive: true });
  const externalRequests: string[] = [];
  return {
    externalRequests,
    async openContext() {
      const context = await browser.newContext({ bypassCSP: true, colorScheme: 'light', viewport: { width: 1280, height: 860 } });
      const page = await context.newPage();
      page.setDefaultTimeout(UI_TIMEOUT_MS);
      page.on('request', (req) => {
        if (!req.url().startsWith(baseUrl) && !req.url().startsWith('data:')) externalRequests.push(req.url());
      });
      return { context, page };
    },
  };
}

export async function signInWithLink(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('New password').fill(PASSWORD);
  await page.getByLabel('Repeat the password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await page.getByRole('heading', { name: 'Developer settings' }).waitFor();
}

/** axe-core in the page: no serious or critical violation (docs/console.md#accessibility). */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const result = await (
      window as unknown as { axe: { run: () => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: unknown }> }> }> } }
    ).axe.run();
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target) }));
  });
  expect({ page: name, violations }).toEqual({ page: name, violations: [] });
}

export async function visit(page: Page, link: string, heading: string): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: link }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

export async function checkPage(page: Page, name: string): Promise<void> {
  await expectAccessible(page, name);
  await page.screenshot({ path: join(SHOTS, `console-${name}.png`), fullPage: true });
}

export const consoleSession = (page: Page) => page.evaluate(async () => (await (await fetch('/console/api/session')).json()) as { csrf_token: string });
