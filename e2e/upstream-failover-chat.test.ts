import { Redis } from 'ioredis';
import { SANDBOX_WINDOW_ACCOUNT } from '@switchboard/domain';
import { customerWindowCacheKey } from '@switchboard/shared-state';
import { eventually, type Stack } from '@switchboard/devstack';
import { channelDriver, startFailoverWorld, type ChannelDriver, type FailoverWorld, type Upstream } from './support/failover-world';

/**
 * Two sandbox Cloud API upstreams behind the dispatcher (docs/routing.md#several-upstreams-per-channel):
 * the primary's chat endpoint is taken down mid-run with carrier-sim's fault switch
 * (docs/sandbox.md#faults-at-run-time) and answers 503, its breaker opens, messages flow through the
 * secondary, and after the primary recovers and the cool-down passes, a probe closes the breaker and
 * traffic returns. Each message carries its id as biz_opaque_callback_data, so the two sims' send logs
 * show where it went and that it went exactly once.
 */
const SANDBOX_SENDER = '+14155550100';
const RECIPIENT = '+447911123400';

let world: FailoverWorld;
let stack: Stack;
let simB: string;

beforeAll(async () => {
  // The secondary sim never sees the customer's message, so neither sim checks the window itself;
  // the gateway still does, from the window the dispatcher opened.
  world = await startFailoverWorld({
    prefix: 'e2efoc',
    account: 'failover-chat-e2e',
    simBehaviour: { enforce_chat_window: false },
    upstreams: ({ primaryUrl, secondaryUrl }) => ({
      chat: [
        { name: 'chat-primary', base_url: primaryUrl, priority: 1 },
        { name: 'chat-secondary', base_url: secondaryUrl, priority: 2 },
      ],
    }),
  });
  ({ stack, secondaryUrl: simB } = world);
  driver = channelDriver(world, 'chat', RECIPIENT);

  // The customer writes first, which opens the customer service window for free-form replies.
  const res = await fetch(`${stack.simUrl}/sim/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ channel: 'chat', from: RECIPIENT, to: SANDBOX_SENDER, text: 'Hello?' }),
  });
  if (!res.ok) throw new Error(`POST /sim/inbound answered ${res.status}`);
  const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  try {
    const window = customerWindowCacheKey(stack.prefix, { accountId: SANDBOX_WINDOW_ACCOUNT, sender: SANDBOX_SENDER, customer: RECIPIENT });
    await eventually(
      () => redis.exists(window),
      (n) => n === 1,
      { what: 'chat window opened' },
    );
  } finally {
    redis.disconnect();
  }
}, 90_000);

afterAll(async () => {
  await world?.stop();
});

const api = <T>(method: string, path: string, body?: unknown) => world.api<T>(method, path, body);
const upstream = (name: string) => world.upstream(name);
const breakerGauge = (name: string) => world.breakerGauge('chat', name);
const setFault = (simUrl: string, fault: Record<string, unknown> | null) => world.setFault(simUrl, 'chat', fault);

// Set once the world is up (beforeAll).
let driver: ChannelDriver;
const sendOne = () => driver.sendOne();
const delivered = (id: string) => driver.delivered(id);
const acceptedAt = (simUrl: string) => driver.acceptedAt(simUrl);

describe('several chat upstreams with circuit breakers', () => {
  it('lists the chat upstreams with their priorities', async () => {
    await eventually(
      () => api<{ data: Upstream[] }>('GET', '/v1/upstreams'),
      (r) => r.body.data?.filter((u) => u.mode === 'test' && u.channel === 'chat').length === 2,
      {
        what: 'published chat upstreams',
      },
    );
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
    await eventually(
      () => breakerGauge('chat-primary'),
      (v) => v === '2',
      { what: 'open breaker gauge', timeoutMs: 5_000 },
    );

    const whileOpen = await sendAndDeliver(3);
    expect(await acceptedAt(simB)).toEqual(expect.arrayContaining(whileOpen));

    await setFault(stack.simUrl, null);
    // After the cool-down (BREAKER_POLICY.coolDownMs in services/dispatcher, 30 s) one send probes the primary; its success closes the breaker.
    await eventually(
      async () => {
        await sendAndDeliver(1);
        return (await upstream('chat-primary')).state;
      },
      (state) => state === 'closed',
      { what: 'primary breaker closed again', timeoutMs: 60_000, intervalMs: 500 },
    );
    const afterRecovery = await sendAndDeliver(3);
    expect(await acceptedAt(stack.simUrl)).toEqual(expect.arrayContaining(afterRecovery));
    await eventually(
      () => breakerGauge('chat-primary'),
      (v) => v === '0',
      { what: 'closed breaker gauge', timeoutMs: 5_000 },
    );

    // Every message was taken by exactly one upstream, once.
    const taken = [...(await acceptedAt(stack.simUrl)), ...(await acceptedAt(simB))];
    for (const id of sent) expect(taken.filter((ref) => ref === id)).toHaveLength(1);
    expect(taken).toHaveLength(sent.length);
  }, 150_000);
});
