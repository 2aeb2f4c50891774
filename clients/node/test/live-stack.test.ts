/**
 * The SDK against a running stack, driven by e2e/sdk-node.test.ts, which passes the stack through the environment:
 * SWITCHBOARD_BASE_URL, SWITCHBOARD_API_KEY, SWITCHBOARD_PROXY_URL (the fault-injecting proxy in front of the
 * gateway), SWITCHBOARD_RECEIVER_URL and SWITCHBOARD_RECEIVER_LOG (a webhook receiver and the file it logs
 * deliveries to), SWITCHBOARD_CHAT_RECIPIENT (a customer whose chat window is open). Sandbox numbers: docs/sandbox.md.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { ApiError, Switchboard, verify, WebhookVerificationError, type Message } from '../src/index';

const env = process.env;
const live = Boolean(env.SWITCHBOARD_BASE_URL);
const need = (name: string): string => {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

async function eventually<T>(read: () => Promise<T> | T, done: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// Each test has its own customer on the fresh stack; endings 10..99 are delivered, then read (docs/sandbox.md).
// The Python and PHP suites use 10..17 on their own stacks; these are distinct anyway so that the suites can share one.
const recipient = (ending: number) => `+4479111234${String(ending).padStart(2, '0')}`;

async function fault(status: number, count: number, forward: boolean, retryAfter = ''): Promise<void> {
  const res = await fetch(`${need('SWITCHBOARD_PROXY_URL')}/__fault`, {
    method: 'PUT',
    body: JSON.stringify({ status, count, forward, retry_after: retryAfter }),
  });
  assert.equal(res.status, 204);
}

async function injected(): Promise<number> {
  const res = await fetch(`${need('SWITCHBOARD_PROXY_URL')}/__fault`);
  return ((await res.json()) as { injected: number }).injected;
}

// Each test is skipped on its own (not the whole describe), so the runner counts them as skipped.
const liveTest = (name: string, fn: () => Promise<void>): void => void test(name, { skip: live ? false : 'needs a running stack (e2e/sdk-node.test.ts)' }, fn);

describe('the SDK against the running stack', () => {
  const client = () => new Switchboard({ baseUrl: need('SWITCHBOARD_BASE_URL'), apiKey: need('SWITCHBOARD_API_KEY') });
  // Short backoffs keep the retry tests quick; the 429's Retry-After: 1 is honoured regardless.
  const proxied = () =>
    new Switchboard({
      baseUrl: need('SWITCHBOARD_PROXY_URL'),
      apiKey: need('SWITCHBOARD_API_KEY'),
      retry: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1000 },
    });
  const waitStatus = (id: string, ...statuses: string[]) =>
    eventually(
      () => client().messages.get(id),
      (m) => statuses.includes(m.status),
      `${id} in ${statuses.join('/')}`,
    );
  const messagesTo = async (customer: string) => (await client().messages.list({ recipient: customer, limit: 100 }).toArray()).map((m) => m.id);

  liveTest('sends on every channel and reads the status', async () => {
    const sb = client();
    const chat = await sb.messages.sendChat({ to: need('SWITCHBOARD_CHAT_RECIPIENT'), type: 'text', text: { body: 'chat from node' } });
    assert.equal(chat.channel, 'chat');
    const others = await Promise.all(
      (
        [
          ['sms', 40],
          ['rcs', 41],
          ['auto', 42],
        ] as const
      ).map(([channel, n]) => sb.messages.send({ channel, recipient: recipient(n), text: `${channel} from node` })),
    );
    const sent = [chat, ...others];
    assert.deepEqual(
      sent.map((m) => m.status),
      ['queued', 'queued', 'queued', 'queued'],
    );
    // auto to a customer without an open chat window skips chat and goes out on rcs (docs/chat.md).
    const expected = ['chat', 'sms', 'rcs', 'rcs'];
    for (const [i, message] of sent.entries()) {
      const final: Message = await waitStatus(message.id, 'delivered', 'read');
      assert.deepEqual([final.channel, final.channel_used], [message.channel, expected[i]]);
      assert.ok((await sb.messages.events(message.id)).some((e) => e.status === 'delivered'));
    }
  });

  liveTest('a 503 after the gateway accepted is replayed, not duplicated', async () => {
    const customer = recipient(43);
    const before = await injected();
    await fault(503, 1, true);
    const message = await proxied().messages.send({ channel: 'sms', recipient: customer, text: 'through a 503' });
    assert.equal(await injected(), before + 1);
    await waitStatus(message.id, 'delivered', 'read');
    assert.deepEqual(await messagesTo(customer), [message.id]);
  });

  liveTest('a 429 with Retry-After is retried once and accepted', async () => {
    const customer = recipient(44);
    const before = await injected();
    await fault(429, 1, false, '1');
    const message = await proxied().messages.send({ channel: 'sms', recipient: customer, text: 'through a 429' });
    assert.equal(await injected(), before + 1);
    await waitStatus(message.id, 'delivered', 'read');
    assert.deepEqual(await messagesTo(customer), [message.id]);
  });

  liveTest('the same Idempotency-Key never makes two messages', async () => {
    const key = randomUUID();
    const first = await client().messages.send({ channel: 'sms', recipient: recipient(45), text: 'once' }, { idempotencyKey: key });
    const second = await client().messages.send({ channel: 'sms', recipient: recipient(45), text: 'once' }, { idempotencyKey: key });
    assert.equal(second.id, first.id);
  });

  liveTest('a send in the bulk lane reads and lists by its lane', async () => {
    const sb = client();
    const customer = recipient(39);
    const message = await sb.messages.send({ channel: 'sms', recipient: customer, text: 'newsletter', traffic_class: 'bulk' });
    assert.equal((await sb.messages.get(message.id)).traffic_class, 'bulk');
    // A message is listed once the dispatcher has stored it (docs/api.md).
    const listed = await eventually(
      async () => (await sb.messages.list({ recipient: customer, traffic_class: 'bulk' }).toArray()).map((m) => m.id),
      (got) => got.length >= 1,
      'the bulk message listed',
    );
    assert.deepEqual(listed, [message.id]);
    assert.deepEqual(await sb.messages.list({ recipient: customer, traffic_class: 'transactional' }).toArray(), []);
  });

  liveTest('the list iterator walks every page', async () => {
    const sb = client();
    const customer = recipient(46);
    const ids = new Set<string>();
    for (let n = 0; n < 25; n += 1) ids.add((await sb.messages.send({ channel: 'sms', recipient: customer, text: `page ${n}` })).id);
    const listed = await eventually(
      async () => (await sb.messages.list({ recipient: customer, limit: 10 }).toArray()).map((m) => m.id),
      (got) => got.length >= 25,
      '25 listed messages',
    );
    assert.equal(listed.length, 25);
    assert.deepEqual(new Set(listed), ids);
    const firstPage = await sb.messages.listPage({ recipient: customer, limit: 10 });
    assert.equal(firstPage.data.length, 10);
    assert.ok(firstPage.next_cursor);
    let pages = 0;
    for await (const page of sb.messages.list({ recipient: customer, limit: 10 }).pages()) pages += page.data.length > 0 ? 1 : 0;
    assert.equal(pages, 3);
  });

  liveTest('an invalid request throws the problem fields', async () => {
    const error = await client()
      .messages.send({ channel: 'sms', recipient: 'not-a-number', text: 'x' })
      .catch((e: unknown) => e);
    assert.ok(error instanceof ApiError, String(error));
    assert.deepEqual([error.status, error.code, error.type], [400, 'validation_failed', '/errors/validation_failed']);
    assert.ok(
      error.errors.some((e) => e.field === '/recipient'),
      JSON.stringify(error.errors),
    );
    assert.ok(error.requestId);
    assert.ok(error.title);
  });

  liveTest('a real webhook delivery verifies and a tampered one does not', async () => {
    const sb = client();
    const path = `/sdk-node/${randomUUID()}`;
    const endpoint = await sb.webhooks.create({ url: need('SWITCHBOARD_RECEIVER_URL') + path, events: ['message.delivered'] });
    assert.match(endpoint.secret, /^whsec_/);
    assert.ok((await sb.webhooks.list().toArray()).some((e) => e.id === endpoint.id));
    const message = await sb.messages.send({ channel: 'sms', recipient: recipient(47), text: 'hook me' });

    interface Delivery {
      path: string;
      headers: Record<string, string>;
      body: string;
    }
    const deliveries = (): Delivery[] => {
      const log = need('SWITCHBOARD_RECEIVER_LOG');
      if (!existsSync(log)) return [];
      const lines = readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as Delivery);
      // The endpoint hears every message of the account: keep the deliveries about this one.
      return lines.filter((d) => d.path === path && (JSON.parse(d.body) as { data: { id: string } }).data.id === message.id);
    };

    const [delivery] = await eventually(deliveries, (d) => d.length > 0, 'a delivery to the receiver');
    const event = verify(Buffer.from(delivery.body, 'utf8'), delivery.headers, endpoint.secret);
    assert.deepEqual([event.type, event.data.id], ['message.delivered', message.id]);
    assert.equal(sb.webhooks.verify(delivery.body, new Headers(delivery.headers), endpoint.secret).id, event.id);
    assert.throws(() => verify(delivery.body.replace(message.id, 'msg_tampered'), delivery.headers, endpoint.secret), WebhookVerificationError);

    assert.ok((await sb.webhooks.deliveries(endpoint.id).toArray()).some((d) => d.event_id === event.id));
    assert.equal((await sb.events.get(event.id)).type, 'message.delivered');
    assert.ok((await sb.events.list({ resource_id: message.id, type: 'message.delivered' }).toArray()).some((e) => e.id === event.id));
    // After a rotation the redelivered event carries both signatures; the new secret alone verifies it.
    const rotated = await sb.webhooks.rotateSecret(endpoint.id);
    assert.notEqual(rotated.secret, endpoint.secret);
    await sb.events.redeliver(event.id);
    const again = (await eventually(deliveries, (d) => d.length > 1, 'the redelivery'))[1];
    assert.equal(verify(again.body, again.headers, rotated.secret).id, event.id);
    assert.equal(verify(again.body, again.headers, endpoint.secret).id, event.id);
    assert.match(await sb.account.webhookSecret(), /^whsec_/);
    await sb.webhooks.delete(endpoint.id);
    await assert.rejects(sb.webhooks.get(endpoint.id), (e: unknown) => e instanceof ApiError && e.status === 404);
  });

  liveTest('suppressions and account settings round-trip', async () => {
    const sb = client();
    const customer = recipient(48);
    const entry = await sb.suppressions.create({ recipient: customer, channel: 'sms' });
    assert.deepEqual([entry.recipient, entry.channel, entry.source], [customer, 'sms', 'api']);
    assert.deepEqual(
      (await sb.suppressions.list({ recipient: customer }).toArray()).map((s) => s.id),
      [entry.id],
    );
    const refused = await sb.messages.send({ channel: 'sms', recipient: customer, text: 'no' }).catch((e: unknown) => e);
    assert.ok(refused instanceof ApiError && refused.code === 'recipient_opted_out', String(refused));
    await sb.suppressions.delete(entry.id);
    assert.deepEqual(await sb.suppressions.list({ recipient: customer }).toArray(), []);
    const settings = await sb.account.update({ fallback_timeout_seconds: 45 });
    assert.equal(settings.fallback_timeout_seconds, 45);
    assert.equal((await sb.account.get()).fallback_timeout_seconds, 45);
    await sb.account.update({ fallback_timeout_seconds: null });
  });

  liveTest('a template is created, approved, sent on chat outside the window, listed and deleted', async () => {
    const sb = client();
    const name = `sdk_node_${randomUUID().slice(0, 8).replace(/-/g, '')}`;
    const template = await sb.templates.create({
      name,
      language: 'en_US',
      category: 'utility',
      components: [{ type: 'body', text: 'Hi {{1}}, your order has shipped.' }],
    });
    assert.equal(template.status, 'pending');
    await eventually(
      () => sb.templates.get(template.id),
      (t) => t.status === 'approved',
      `template ${name} approved`,
    );
    assert.ok((await sb.templates.list().toArray()).some((t) => t.id === template.id));
    // recipient(49) never wrote to us, so only a template may reach them on chat (docs/chat.md).
    const sent = await sb.messages.sendChat({
      to: recipient(49),
      type: 'template',
      template: { name, language: 'en_US', parameters: [{ type: 'text', text: 'Ada' }] },
    });
    const final = await waitStatus(sent.id, 'delivered', 'read');
    assert.equal(final.channel_used, 'chat');
    await sb.templates.delete(template.id);
    await assert.rejects(sb.templates.get(template.id), (e: unknown) => e instanceof ApiError && e.code === 'not_found');
    assert.ok(Array.isArray(await sb.inbound.list({ limit: 5 }).toArray(5)));
    assert.ok((await sb.account.upstreams()).length > 0);
  });

  liveTest('an agent with a broken flow throws its JSON Pointers; a valid one is created, listed, replaced and deleted', async () => {
    const sb = client();
    const refused = await sb.agents
      .create({ name: 'broken', flow: { start: 'a', nodes: { a: { type: 'say', text: 'hi', next: 'nowhere' }, b: { type: 'hangup' } } } })
      .catch((e: unknown) => e);
    assert.ok(refused instanceof ApiError, String(refused));
    assert.equal(refused.status, 400);
    assert.ok(
      refused.errors.some((e) => e.field === '/flow/nodes/a/next'),
      JSON.stringify(refused.errors),
    );
    const agent = await sb.agents.create({ name: 'node sdk', flow: { start: 'bye', nodes: { bye: { type: 'hangup' } } } });
    assert.match(agent.id, /^agt_/);
    assert.ok((await sb.agents.list().toArray()).some((a) => a.id === agent.id));
    const renamed = await sb.agents.replace(agent.id, { name: 'node sdk 2', flow: agent.flow });
    assert.equal((await sb.agents.get(agent.id)).name, renamed.name);
    await sb.agents.delete(agent.id);
    await assert.rejects(sb.agents.get(agent.id), (e: unknown) => e instanceof ApiError && e.status === 404);
  });

  liveTest('a call run by an agent ends with its transcript and a WAV recording', async () => {
    const sb = client();
    const agent = await sb.agents.create({
      name: 'node sdk ivr',
      flow: {
        start: 'menu',
        nodes: {
          menu: {
            type: 'gather',
            input: 'dtmf',
            prompt: 'Press 1 to continue.',
            max_digits: 1,
            timeout_seconds: 8,
            save_as: 'choice',
            branches: [{ match: '1', next: 'thanks' }],
            no_input: 'bye',
            no_match: 'bye',
          },
          thanks: { type: 'say', text: 'Thank you.', next: 'bye' },
          bye: { type: 'hangup' },
        },
      },
    });
    // Numbers ending in 00 answer and press 1 after each prompt (docs/voice.md#carrier-simulator).
    const created = await sb.calls.create({ to: '+447911123400', from: need('SWITCHBOARD_VOICE_FROM'), agent_id: agent.id, record: true });
    assert.equal(created.status, 'ringing');
    const ended = await eventually(
      () => sb.calls.get(created.call_id),
      (c) => !['ringing', 'in-progress'].includes(c.status),
      `${created.call_id} to end`,
      90_000,
    );
    assert.equal(ended.status, 'completed');
    assert.deepEqual(
      (await sb.calls.transcript(created.call_id)).map((t) => `${t.speaker}: ${t.text}`),
      ['agent: Press 1 to continue.', 'callee: DTMF: 1', 'agent: Thank you.'],
    );
    assert.ok((await sb.calls.list({ agent_id: agent.id }).toArray()).some((c) => c.call_id === created.call_id));
    await eventually(
      () => sb.calls.get(created.call_id),
      (c) => c.recording !== null,
      'the recording',
      60_000,
    );
    const wav = Buffer.from(await sb.calls.recording(created.call_id));
    assert.equal(wav.toString('ascii', 0, 4), 'RIFF');
    assert.equal(wav.readUInt16LE(22), 2);
    assert.ok(wav.length > 44 + 8000 * 4, `a recording of ${wav.length} bytes holds less than a second`);
    await assert.rejects(sb.calls.recording('call_nope'), (e: unknown) => e instanceof ApiError && e.status === 404);
  });
});
