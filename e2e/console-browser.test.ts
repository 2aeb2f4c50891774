import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createConsoleUser, createTestDatabase, eventually, launchChromium, startStack, type Stack, type TestDatabase } from '@switchboard/devstack';
import { checkPage, consoleBrowser, consoleSession, expectAccessible, signInWithLink, UI_TIMEOUT_MS, visit } from './support/console-browser-kit';
import { FROM, IVR_FLOW, talkedOverFlow } from './support/voice-calls';
import { ReceiverProcess, TEST_REDIS_URL } from './webhooks-harness';

// The console in a real Chromium against a real stack (docs/console.md#tests): sign-in, keys, a message's live
// timeline to `read`, a webhook delivery and its redelivery, a template, an agent and a call, a viewer, and a
// second account.

let database: TestDatabase;
let stack: Stack;
let browser: Browser;
const receiver = new ReceiverProcess();
const run = Math.random().toString(36).slice(2, 8);
let kit: ReturnType<typeof consoleBrowser>;
const openContext = () => kit.openContext();

beforeAll(async () => {
  database = await createTestDatabase();
  await receiver.start();
  stack = await startStack({
    databaseUrl: database.url,
    redisUrl: TEST_REDIS_URL,
    // The voice orchestrator places the Calls page's call to the simulator's phone (docs/voice.md#carrier-simulator).
    workers: ['dispatcher', 'webhook-delivery', 'voice-orchestrator'],
    env: { TARGET_ALLOW_HTTP: 'true', TARGET_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCHEDULE_MS: '0,200,500,1000' },
  });
  browser = await launchChromium();
  kit = consoleBrowser(browser, stack.baseUrl);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await receiver.kill();
  await database?.drop();
});

/** A console user of the account, and the one-time link that signs it in (docs/console.md#sign-in). */
const signInLink = (account: string, email: string, role: 'owner' | 'viewer') =>
  createConsoleUser(database.url, { account, email, role, baseUrl: stack.baseUrl, secretsKeys: stack.secretsKeys });

// The agent of docs/voice.md's walk-through: the sandbox phone (numbers ending in 00) presses 1, so the call goes to sales.
const IVR_AGENT = { name: `ivr-${run}`, voice: 'slt', flow: IVR_FLOW };

describe('the console in Chromium', () => {
  const accountA = `console-a-${run}`;
  let owner: { context: BrowserContext; page: Page };
  let apiKey = '';
  let messageId = '';
  let agentId = '';

  beforeAll(async () => {
    owner = await openContext();
  });
  afterAll(async () => {
    await owner?.context.close();
  });

  it('signs in through the one-time link and shows the sign-in page to a stranger', async () => {
    const link = await signInLink(accountA, `owner-${run}@example.com`, 'owner');
    const stranger = await openContext();
    // Checking for a session is not an error: the sign-in page loads without one in the browser's console.
    const browserErrors: string[] = [];
    stranger.page.on('console', (message) => {
      if (message.type() === 'error') browserErrors.push(message.text());
    });
    stranger.page.on('pageerror', (error) => browserErrors.push(error.message));
    await stranger.page.goto(`${stack.baseUrl}/console/messages`);
    await stranger.page.getByRole('heading', { name: 'Sign in to the Switchboard console' }).waitFor();
    await checkPage(stranger.page, 'sign-in');
    expect(browserErrors).toEqual([]);
    await stranger.context.close();
    await signInWithLink(owner.page, link.sign_in_url);
  });

  it('creates an API key, shown once, that the test then sends with', async () => {
    const { page } = owner;
    await page.getByLabel('All scopes (*)').check();
    await page.getByLabel('Rate limit (requests per second, empty for the deployment default)').fill('50');
    await page.getByRole('button', { name: 'Create key' }).click();
    apiKey = (await page.getByTestId('new-key').textContent()) ?? '';
    expect(apiKey).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
    await page
      .getByRole('button', { name: /^Revoke key sk_test_/ })
      .first()
      .waitFor();
    await checkPage(page, 'developer-settings');
    await page.emulateMedia({ colorScheme: 'dark' });
    await checkPage(page, 'developer-settings-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('creates a webhook endpoint whose secret is shown once', async () => {
    const { page } = owner;
    await visit(page, 'Webhooks', 'Webhooks');
    await page.getByLabel('URL').fill(receiver.url('/console-hook'));
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    expect(await page.getByTestId('webhook-secret').textContent()).toMatch(/^whsec_/);
  });

  it('watches a message sent with the new key reach read on its timeline', async () => {
    const { page } = owner;
    const sent = await fetch(`${stack.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'rcs', recipient: '+447911123400', content: { text: 'Hello from the console test' } }),
    });
    expect(sent.status).toBe(202);
    messageId = ((await sent.json()) as { id: string }).id;
    await visit(page, 'Messages', 'Messages');
    await page.getByRole('link', { name: messageId }).click();
    await page.getByRole('heading', { name: `Message ${messageId}` }).waitFor();
    // The page polls: no reload happens here, the status changes in place.
    await page.getByTestId('message-status').getByText('read', { exact: true }).waitFor();
    await page.locator('.timeline li[data-status="read"]').waitFor();
    await page.getByText('message.read').first().waitFor();
    await checkPage(page, 'message-timeline');
    await visit(page, 'Messages', 'Messages');
    await page.getByLabel('Status').selectOption('read');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('link', { name: messageId }).waitFor();
    await checkPage(page, 'messages');
  });

  it('pages the message log with cursors and filters it by time', async () => {
    const { page } = owner;
    const second = await fetch(`${stack.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'sms', recipient: '+447911123407', content: { text: 'Second' } }),
    });
    const secondId = ((await second.json()) as { id: string }).id;
    const list = (query: string) =>
      page.evaluate(async (q) => (await fetch(`/console/api/messages${q}`)).json(), query) as Promise<{
        data: Array<{ id: string; created_at: string }>;
        next_cursor: string | null;
      }>;
    // The dispatcher stores the second message within moments; the log reads the store.
    const first = await eventually(
      () => list('?limit=1'),
      (p) => p.data[0]?.id === secondId,
      { what: 'the second message in the log', timeoutMs: UI_TIMEOUT_MS },
    );
    expect(first.next_cursor).not.toBeNull();
    const next = await list(`?limit=1&cursor=${first.next_cursor}`);
    expect(next.data.map((m) => m.id)).toEqual([messageId]);
    const secondAt = first.data[0].created_at;
    expect((await list(`?to=${encodeURIComponent(secondAt)}`)).data.map((m) => m.id)).toEqual([messageId]);
    expect((await list(`?from=${encodeURIComponent(secondAt)}`)).data.map((m) => m.id)).toEqual([secondId]);
    await page.getByLabel('Status').selectOption('');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('link', { name: secondId }).waitFor();
  });

  it("shows the endpoint's delivery log and redelivers an event", async () => {
    const { page } = owner;
    await visit(page, 'Webhooks', 'Webhooks');
    await page.getByRole('button', { name: 'Show delivery log' }).click();
    const row = page.locator('tr[data-event-id]').first();
    await row.waitFor();
    const eventId = (await row.getAttribute('data-event-id')) ?? '';
    const deliveriesOf = () => receiver.received('/console-hook').filter((d) => d.headers['webhook-id'] === eventId || d.body.includes(eventId));
    await eventually(
      async () => deliveriesOf().length,
      (n) => n >= 1,
      { what: `first delivery of ${eventId}`, timeoutMs: UI_TIMEOUT_MS },
    );
    const before = deliveriesOf().length;
    await row.getByRole('button', { name: /^Redeliver / }).click();
    await eventually(
      async () => deliveriesOf().length,
      (n) => n > before,
      { what: `redelivery of ${eventId}`, timeoutMs: UI_TIMEOUT_MS },
    );
    // The log shows the receiver's answer: status, latency and the excerpt of its body ("ok").
    await page.locator(`tr[data-event-id="${eventId}"]`, { hasText: 'HTTP 200' }).locator('td.excerpt', { hasText: 'ok' }).first().waitFor();
    // "Send test event": a webhook.test event to this endpoint only, shown in its log once delivered.
    await page.getByRole('button', { name: 'Send test event' }).click();
    await eventually(
      async () => receiver.received('/console-hook').filter((d) => JSON.parse(d.body).type === 'webhook.test').length,
      (n) => n === 1,
      {
        what: 'the test event',
        timeoutMs: UI_TIMEOUT_MS,
      },
    );
    await page.locator('tr[data-event-id]', { hasText: 'webhook.test' }).first().waitFor();
    await checkPage(page, 'webhooks');
  });

  it('creates a template and sees the sandbox approve it', async () => {
    const { page } = owner;
    await visit(page, 'Templates', 'Templates');
    await page.getByLabel('Name (lowercase letters, digits and _)').fill(`order_ready_${run}`);
    await page.getByLabel(/^Body/).fill('Hi {{1}}, your order is ready.');
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.locator(`tr[data-template="order_ready_${run}"]`).getByText('approved').waitFor();
    await checkPage(page, 'templates');
  });

  it('shows inbound replies, numbers and usage', async () => {
    const { page } = owner;
    await visit(page, 'Inbound', 'Inbound replies');
    await page.getByRole('heading', { name: 'No open window' }).waitFor();
    await checkPage(page, 'inbound');
    await visit(page, 'Numbers', 'Numbers');
    await page.getByLabel('Number (E.164)').fill('+14155550142');
    await page.getByRole('button', { name: 'Add number' }).click();
    await page.getByRole('cell', { name: '+14155550142', exact: true }).waitFor();
    await checkPage(page, 'numbers');
    await visit(page, 'Usage', 'Usage');
    await page.getByRole('img', { name: /Messages per day and channel/ }).waitFor();
    await checkPage(page, 'usage');
  });

  it("shows an invalid flow's problems beside the agent editor, then saves a valid agent and draws its flow", async () => {
    const { page } = owner;
    await visit(page, 'Agents', 'Agents');
    const editor = page.getByLabel(/^Agent as JSON/);
    const broken = { name: 'broken', flow: { start: 'a', nodes: { a: { type: 'say', text: 'hi', next: 'nowhere' }, b: { type: 'dance' } } } };
    await editor.fill(JSON.stringify(broken, null, 2));
    await page.getByRole('button', { name: 'Create agent' }).click();
    const problems = page.locator('#agent-problems');
    await problems.getByText('/flow/nodes/a/next', { exact: true }).waitFor();
    await problems.getByText('/flow/nodes/b/type', { exact: true }).waitFor();
    expect(await editor.getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'agents (invalid flow)');
    await editor.fill('{ "name": ');
    await problems.getByText(/^Not JSON/).waitFor();
    expect(await page.getByRole('button', { name: 'Create agent' }).isDisabled()).toBe(true);

    await editor.fill(JSON.stringify(IVR_AGENT, null, 2));
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Saved ${IVR_AGENT.name}` })
      .waitFor();
    await page.locator(`tr[data-agent="${IVR_AGENT.name}"]`).waitFor();
    agentId = new URL(page.url()).searchParams.get('id') ?? '';
    expect(agentId).toMatch(/^agt_/);
    await page.getByRole('img', { name: 'Flow graph: 6 nodes, 7 exits, starting at greet' }).waitFor();
    const listed = await fetch(`${stack.baseUrl}/v1/voice/agents/${agentId}`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(((await listed.json()) as { flow: unknown }).flow).toEqual(IVR_AGENT.flow);
    await checkPage(page, 'agents');
  });

  it("shows a call placed with the API key in Calls, with its transcript, a playable recording and the agent's flow", async () => {
    const { page } = owner;
    const { csrf_token } = await consoleSession(page);
    const added = await page.evaluate(
      async ({ csrf, e164 }) =>
        (
          await fetch('/console/api/numbers', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'X-CSRF-Token': csrf },
            body: JSON.stringify({ e164, channels: ['voice'] }),
          })
        ).status,
      { csrf: csrf_token, e164: FROM },
    );
    expect(added).toBe(201);
    const res = await fetch(`${stack.baseUrl}/v1/voice/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ to: '+447911123400', from: FROM, agent_id: agentId, record: true, metadata: { name: 'Ada' } }),
    });
    expect(res.status).toBe(201);
    const callId = ((await res.json()) as { call_id: string }).call_id;

    await visit(page, 'Calls', 'Calls');
    await page.locator(`tr[data-call="${callId}"]`).getByRole('link').click();
    await page.getByRole('heading', { name: `Call ${callId}`, level: 1 }).waitFor();
    const transcript = page.getByTestId('transcript');
    await transcript.getByText('Connecting you to sales.').waitFor({ timeout: 90_000 });
    const lines = await transcript
      .locator('li')
      .evaluateAll((items) => items.map((li) => `${li.querySelector('.speaker')?.textContent}: ${li.querySelector('.said')?.textContent}`));
    expect(lines).toEqual([
      'Agent: Hello Ada, this is Switchboard.',
      'Agent: Press 1 for sales or 2 for support.',
      'Callee: DTMF: 1',
      'Agent: Connecting you to sales.',
    ]);
    const audio = page.getByTestId('recording');
    await audio.waitFor({ timeout: 90_000 });
    // Playable: Chromium fetches the WAV through the console API with the session cookie and decodes its header.
    const seconds = await audio.evaluate(
      (el) =>
        new Promise<number>((resolve, reject) => {
          const media = el as HTMLAudioElement;
          if (media.readyState >= 1) return resolve(media.duration);
          media.addEventListener('loadedmetadata', () => resolve(media.duration), { once: true });
          media.addEventListener('error', () => reject(new Error(`media error ${media.error?.code}: ${media.error?.message}`)), { once: true });
          media.load();
        }),
    );
    expect(seconds).toBeGreaterThan(2);
    await page.getByRole('img', { name: /^Flow graph: 6 nodes/ }).waitFor();
    await checkPage(page, 'calls');
    await visit(page, 'Calls', 'Calls');
    await expectAccessible(page, 'calls (list)');

    // Usage counts the call and its minutes beside the messages.
    await visit(page, 'Usage', 'Usage');
    await page.getByRole('img', { name: /Calls per day and outcome/ }).waitFor();
    await page.getByRole('img', { name: /Call minutes per day and outcome/ }).waitFor();
    const callRows = await page
      .locator('table')
      .last()
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)));
    expect(callRows).toEqual([[expect.any(String), 'completed', '1', '1']]);
    await checkPage(page, 'usage-calls');
  }, 240_000);

  it("marks an agent turn the callee cut short as interrupted on the call's page", async () => {
    const { page } = owner;
    const api = async (method: string, path: string, body?: unknown) =>
      (
        await fetch(`${stack.baseUrl}${path}`, {
          method,
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: body && JSON.stringify(body),
        })
      ).json();
    const greeting = 'Thank you for calling the Switchboard demonstration line where we will now read you a very long list of all our departments';
    const agent = (await api('POST', '/v1/voice/agents', { name: 'talked over', flow: talkedOverFlow(greeting) })) as { id: string };
    // The simulator's 10 phone says "I want to speak to sales" 1 s into the greeting (docs/voice.md#carrier-simulator).
    const { call_id: callId } = (await api('POST', '/v1/voice/calls', { to: '+447911123410', from: FROM, agent_id: agent.id })) as { call_id: string };
    await visit(page, 'Calls', 'Calls');
    await page.locator(`tr[data-call="${callId}"]`).getByRole('link').click();
    const transcript = page.getByTestId('transcript');
    await transcript.getByText('Connecting you to sales.').waitFor({ timeout: 90_000 });
    const cut = transcript.locator('li', { hasText: greeting });
    await cut.locator('.interrupted').getByText('(interrupted)').waitFor();
    expect(await transcript.locator('.interrupted').count()).toBe(1);
    await checkPage(page, 'call-interrupted');
  }, 240_000);

  it('lets a viewer see keys but not revoke one, in the page or through the API', async () => {
    const link = await signInLink(accountA, `viewer-${run}@example.com`, 'viewer');
    const viewer = await openContext();
    try {
      await signInWithLink(viewer.page, link.sign_in_url);
      const row = viewer.page.locator('tr[data-key-id]').first();
      await row.waitFor();
      expect(await viewer.page.getByRole('button', { name: /^Revoke/ }).count()).toBe(0);
      const keyId = (await row.getAttribute('data-key-id')) ?? '';
      const { csrf_token } = await consoleSession(viewer.page);
      const status = await viewer.page.evaluate(
        async ({ keyId, csrf }) => (await fetch(`/console/api/keys/${keyId}/revoke`, { method: 'POST', headers: { 'X-CSRF-Token': csrf } })).status,
        { keyId, csrf: csrf_token },
      );
      expect(status).toBe(403);
      // Agents are read-only for a viewer too: the page has no save button and the API refuses the write.
      await visit(viewer.page, 'Agents', 'Agents');
      await viewer.page.getByRole('button', { name: `View agent ${IVR_AGENT.name}` }).waitFor();
      expect(await viewer.page.getByRole('button', { name: /^(Create|Save) agent$/ }).count()).toBe(0);
      const agentWrite = await viewer.page.evaluate(
        async ({ csrf, body }) =>
          (await fetch('/console/api/v1/voice/agents', { method: 'POST', headers: { 'content-type': 'application/json', 'X-CSRF-Token': csrf }, body })).status,
        { csrf: csrf_token, body: JSON.stringify(IVR_AGENT) },
      );
      expect(agentWrite).toBe(403);
      const still = await fetch(`${stack.baseUrl}/v1/messages/${messageId}`, { headers: { authorization: `Bearer ${apiKey}` } });
      expect(still.status).toBe(200);
    } finally {
      await viewer.context.close();
    }
  });

  it("shows account B none of account A's messages", async () => {
    const link = await signInLink(`console-b-${run}`, `owner-b-${run}@example.com`, 'owner');
    const other = await openContext();
    try {
      await signInWithLink(other.page, link.sign_in_url);
      await visit(other.page, 'Messages', 'Messages');
      await other.page.getByRole('heading', { name: 'No messages yet' }).waitFor();
      expect(await other.page.getByRole('link', { name: messageId }).count()).toBe(0);
      const status = await other.page.evaluate(async (id) => (await fetch(`/console/api/v1/messages/${id}`)).status, messageId);
      expect(status).toBe(404);
      await other.page.goto(`${stack.baseUrl}/console/messages/${messageId}`);
      await other.page.getByRole('alert').waitFor();
    } finally {
      await other.context.close();
    }
  });

  it('signs out, and the page made no request outside the gateway', async () => {
    const { page } = owner;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the Switchboard console' }).waitFor();
    const status = await page.evaluate(async () => (await fetch('/console/api/keys')).status);
    expect(status).toBe(401);
    expect(kit.externalRequests).toEqual([]);
  });
});
