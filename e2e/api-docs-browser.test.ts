import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { createTestDatabase, launchChromium, startService, testSecretsKeys, type ServiceProcess, type TestDatabase } from '@switchboard/devstack';

/*
 * `/docs` in headless Chromium (docs/api.md#reference-docs): the reference renders its tags and
 * operations with navigation and search, and the page asks no host but the gateway for anything.
 * The screenshot lands in a temporary folder; UPDATE_SCREENSHOTS=1 also copies it to docs/images/api-docs.png.
 */

let database: TestDatabase;
let gateway: ServiceProcess;
let browser: Browser;

beforeAll(async () => {
  database = await createTestDatabase();
  gateway = await startService('api-gateway', {
    DATABASE_URL: database.url,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: `docs${process.pid}`,
    SECRETS_ENCRYPTION_KEYS: testSecretsKeys(database.url),
    LOG_LEVEL: 'warn',
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await gateway?.stop();
  await database?.drop();
});

describe('GET /docs in Chromium', () => {
  it('renders tags and operations with navigation and search, loading everything from the gateway alone', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const requested: string[] = [];
    const refused: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
    });
    page.on('pageerror', (error) => refused.push(`page error: ${error.message}`));

    const answer = await page.goto(`${gateway.url}/docs`, { waitUntil: 'networkidle', timeout: 90_000 });
    expect(answer?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Switchboard API' }).first().waitFor({ timeout: 60_000 });
    await page.getByText('Send a message', { exact: false }).first().waitFor({ timeout: 60_000 });
    const text = await page.locator('body').innerText();
    for (const visible of ['Messages', 'Webhooks', 'Events', 'Provider callbacks', 'Send a message', 'List messages, newest first'])
      expect(text).toContain(visible);
    // Navigation: the sidebar names the tags; search: Scalar's search field opens from the sidebar.
    await expect(page.locator('nav, aside, .sidebar').first().isVisible()).resolves.toBe(true);
    await page
      .locator('button:visible', { hasText: /search/i })
      .first()
      .click();
    await page.keyboard.type('signing secret');
    // The search answers with the operation whose summary matches, in its result list.
    const results = await page.getByRole('combobox').getAttribute('aria-controls');
    await page.locator(`[id="${results}"]`).getByText('Give an endpoint a new signing secret').first().waitFor({ timeout: 30_000 });
    await page.keyboard.press('Escape');

    const origin = new URL(gateway.url).origin;
    const elsewhere = requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:'));
    expect(elsewhere).toEqual([]);
    expect(requested).toEqual(expect.arrayContaining([`${origin}/docs`, `${origin}/docs/scalar-api-reference.js`, `${origin}/v1/openapi.json`]));
    expect(refused).toEqual([]);

    const folder = mkdtempSync(join(tmpdir(), 'api-docs-'));
    const shot = join(folder, 'api-docs.png');
    await page.screenshot({ path: shot });
    if (process.env.UPDATE_SCREENSHOTS === '1') copyFileSync(shot, join(__dirname, '..', 'docs', 'images', 'api-docs.png'));
    rmSync(folder, { recursive: true, force: true });
    await page.close();
  });
});
