import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { SANDBOX_WINDOW_ACCOUNT } from '@switchboard/domain';
import { customerWindowCacheKey } from '@switchboard/shared-state';
import { createAccountKey, createTestDatabase, eventually, freePort, startStack, type Stack, type TestDatabase } from '@switchboard/devstack';

/**
 * Two sandbox Cloud API upstreams behind the dispatcher (docs/routing.md#several-upstreams-per-channel):
 * the primary's chat endpoint is taken down mid-run with carrier-sim's fault switch
 * (docs/sandbox.md#faults-at-run-time) and answers 503, its breaker opens, messages flow through the
 * secondary, and after the primary recovers and the cool-down passes, a probe closes the breaker and
 * traffic returns. Each message carries its id as biz_opaque_callback_data, so the two sims' send logs
 * show where it went and that it went exactly once.
 */
interface Upstream {
  name: string;
  channel: string;
  mode: string;
  state: string;
  error_rate: number;
  priority: number;
}

const SANDBOX_SENDER = '+14155550100';
const RECIPIENT = '+447911123400';

let database: TestDatabase;
let stack: Stack;
let key: string;
let simB: string;
let dispatcherHealth: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const prefix = `e2efoc${randomBytes(4).toString('hex')}`;
  // The secondary sim never sees the customer's message, so neither sim checks the window itself;
  // the gateway still does, from the window the dispatcher opened.
  stack = await startStack({
    databaseUrl: database.url,
    redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    prefix,
    workers: [],
    simEnv: { SIM_ENFORCE_CHAT_WINDOW: 'false' },
  });
  const [simBPort, simBSmppPort, healthPort] = await Promise.all([freePort(), freePort(), freePort()]);
  await stack.startService('carrier-sim', { SIM_PORT: String(simBPort), SIM_SMPP_PORT: String(simBSmppPort), SIM_ENFORCE_CHAT_WINDOW: 'false' });
  simB = `http://127.0.0.1:${simBPort}`;
  await stack.startService('dispatcher', {
    HEALTH_PORT: String(healthPort),
    SANDBOX_CHAT_UPSTREAMS: JSON.stringify([
      { name: 'chat-primary', base_url: stack.simUrl, priority: 1 },
      { name: 'chat-secondary', base_url: simB, priority: 2 },
    ]),
    UPSTREAM_BREAKER_WINDOW: '10',
    UPSTREAM_BREAKER_MIN_CALLS: '10',
    UPSTREAM_BREAKER_COOL_DOWN_MS: '3000',
    UPSTREAM_BREAKER_GAUGE_REFRESH_MS: '200',
  });
  dispatcherHealth = `http://127.0.0.1:${healthPort}`;
  ({ key } = await createAccountKey(database.url, { account: 'failover-chat-e2e', mode: 'test', scopes: ['*'] }));

  // The customer writes first, which opens the customer service window for free-form replies.
  const res = await fetch(`${stack.simUrl}/sim/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ channel: 'chat', from: RECIPIENT, to: SANDBOX_SENDER, text: 'Hello?' }),
  });
  if (!res.ok) throw new Error(`POST /sim/inbound answered ${res.status}`);
  const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  try {
    const window = customerWindowCacheKey(prefix, { accountId: SANDBOX_WINDOW_ACCOUNT, sender: SANDBOX_SENDER, customer: RECIPIENT });
    await eventually(() => redis.exists(window), (n) => n === 1, { what: 'chat window opened' });
  } finally {
    redis.disconnect();
  }
}, 90_000);

afterAll(async () => {
  await stack?.stop();
  await database?.drop();
});

async function api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${stack.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

let sequence = 0;
async function sendOne(): Promise<string> {
  sequence += 1;
  const res = await api<{ id: string }>('POST', '/v1/messages', { channel: 'chat', recipient: RECIPIENT, content: { text: `failover ${sequence}` } });
  if (res.status !== 202) throw new Error(`POST /v1/messages answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

const delivered = (id: string) =>
  eventually(() => api<{ status: string }>('GET', `/v1/messages/${id}`), (r) => ['delivered', 'read'].includes(r.body.status), {
    what: `${id} delivered`,
    timeoutMs: 20_000,
    intervalMs: 150,
  });

/** The message ids (biz_opaque_callback_data) a sim's Cloud API took. */
async function acceptedAt(simUrl: string): Promise<string[]> {
  const res = await fetch(`${simUrl}/sim/sends?channel=chat`);
  const { data } = (await res.json()) as { data: Array<{ client_ref: string | null; outcome: string }> };
  return data.filter((s) => s.outcome === 'accepted').map((s) => String(s.client_ref));
}

async function upstream(name: string): Promise<Upstream> {
  const res = await api<{ data: Upstream[] }>('GET', '/v1/upstreams');
  expect(res.status).toBe(200);
  const found = res.body.data.find((u) => u.name === name && u.mode === 'test');
  if (!found) throw new Error(`${name} is not in GET /v1/upstreams: ${JSON.stringify(res.body)}`);
  return found;
}

async function breakerGauge(name: string): Promise<string | undefined> {
  const text = await (await fetch(`${dispatcherHealth}/metrics`)).text();
  return text.split('\n').find((l) => l.startsWith('switchboard_upstream_breaker_state') && l.includes('channel="chat"') && l.includes(`upstream="${name}"`))?.split(' ').pop();
}

async function setFault(simUrl: string, body: Record<string, unknown> | null): Promise<void> {
  const res = await fetch(`${simUrl}/sim/faults${body ? '' : '?channel=chat'}`, body ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : { method: 'DELETE' });
  if (!res.ok) throw new Error(`/sim/faults answered ${res.status}`);
}

describe('several chat upstreams with circuit breakers', () => {
  it('lists the chat upstreams with their priorities', async () => {
    await eventually(() => api<{ data: Upstream[] }>('GET', '/v1/upstreams'), (r) => r.body.data?.filter((u) => u.mode === 'test' && u.channel === 'chat').length === 2, {
      what: 'published chat upstreams',
    });
    expect(await upstream('chat-primary')).toMatchObject({ channel: 'chat', state: 'closed', priority: 1 });
    expect(await upstream('chat-secondary')).toMatchObject({ channel: 'chat', state: 'closed', priority: 2 });
  });

  it('answers a down chat upstream with a Graph-style 503', async () => {
    await setFault(simB, { channel: 'chat', mode: 'down' });
    try {
      const res = await fetch(`${simB}/v21.0/14155550100/messages`, {
        method: 'POST',
        headers: { authorization: 'Bearer sandbox-chat-token', 'content-type': 'application/json' },
        body: JSON.stringify({ messaging_product: 'whatsapp', to: '447911123400', type: 'text', text: { body: 'x' } }),
      });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: { code: number } }).error.code).toBe(2);
      expect(await (await fetch(`${simB}/sim/faults`)).json()).toEqual({ data: [{ channel: 'chat', mode: 'down', delay_ms: 2000, error_rate: 0.5 }] });
    } finally {
      await setFault(simB, null);
    }
    expect(await acceptedAt(simB)).toEqual([]);
  });

  it('fails over while the primary is down and returns after it recovers', async () => {
    const sent: string[] = [];
    const sendAndDeliver = async (n: number) => {
      const batch = await Promise.all(Array.from({ length: n }, () => sendOne()));
      await Promise.all(batch.map((id) => delivered(id)));
      sent.push(...batch);
      return batch;
    };

    const healthy = await sendAndDeliver(3);
    expect(await acceptedAt(stack.simUrl)).toEqual(expect.arrayContaining(healthy));

    await setFault(stack.simUrl, { channel: 'chat', mode: 'down' });
    // Each 503 moves on to the secondary within the same attempt; ten failures open the breaker.
    await sendAndDeliver(12);
    expect(await upstream('chat-primary')).toMatchObject({ state: 'open' });
    expect((await upstream('chat-primary')).error_rate).toBeGreaterThanOrEqual(0.5);
    await eventually(() => breakerGauge('chat-primary'), (v) => v === '2', { what: 'open breaker gauge', timeoutMs: 5_000 });

    const whileOpen = await sendAndDeliver(3);
    expect(await acceptedAt(simB)).toEqual(expect.arrayContaining(whileOpen));

    await setFault(stack.simUrl, null);
    // After the cool-down one send probes the primary; its success closes the breaker.
    await eventually(
      async () => {
        await sendAndDeliver(1);
        return (await upstream('chat-primary')).state;
      },
      (state) => state === 'closed',
      { what: 'primary breaker closed again', timeoutMs: 30_000, intervalMs: 500 },
    );
    const afterRecovery = await sendAndDeliver(3);
    expect(await acceptedAt(stack.simUrl)).toEqual(expect.arrayContaining(afterRecovery));
    await eventually(() => breakerGauge('chat-primary'), (v) => v === '0', { what: 'closed breaker gauge', timeoutMs: 5_000 });

    // Every message was taken by exactly one upstream, once.
    const taken = [...(await acceptedAt(stack.simUrl)), ...(await acceptedAt(simB))];
    for (const id of sent) expect(taken.filter((ref) => ref === id)).toHaveLength(1);
    expect(taken).toHaveLength(sent.length);
  });
});
