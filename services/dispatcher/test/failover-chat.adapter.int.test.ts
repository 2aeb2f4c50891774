import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { createChatAdapter, type OutboundMessage } from '@switchboard/providers';
import { createUpstreamBreakerStore, type UpstreamBreakerStore } from '@switchboard/shared-state';
import { createDispatcherMetrics } from '../src/metrics';
import type { BreakerPolicy } from '../src/upstreams/circuit-breaker';
import { createFailoverChatAdapter } from '../src/upstreams/failover-chat.adapter';

/**
 * The chat failover adapter with the real Cloud API adapter over HTTP, against two scripted Graph
 * endpoints, and real Redis for the breakers: which answers move a send on (docs/routing.md#several-upstreams-per-channel).
 */
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const policy: BreakerPolicy = { windowSize: 10, minCalls: 10, failureRateThreshold: 0.5, slowCallMs: 60_000, coolDownMs: 1_000, probeTimeoutMs: 500 };
const message: OutboundMessage = { clientRef: 'msg_1', to: '+447911123400', from: '+14155550100', content: { kind: 'text', text: 'hi' } };

type Reaction = { status: number; body: unknown } | 'hang';
const ok = (id: string): Reaction => ({ status: 200, body: { messaging_product: 'whatsapp', messages: [{ id }] } });
const graphError = (status: number, code: number): Reaction => ({ status, body: { error: { message: `(#${code})`, type: 'OAuthException', code } } });

/** A Graph endpoint answering each send with the scripted reaction, counting what reached it. */
async function scriptedGraph(react: () => Reaction): Promise<{ url: string; calls: () => number; server: Server }> {
  let calls = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls += 1;
      const reaction = react();
      if (reaction === 'hang') return;
      res.writeHead(reaction.status, { 'content-type': 'application/json' }).end(JSON.stringify(reaction.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls: () => calls, server };
}

let redis: Redis;
let breakers: UpstreamBreakerStore;
const servers: Server[] = [];

beforeAll(() => {
  redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
});

beforeEach(() => {
  breakers = createUpstreamBreakerStore({ redis, prefix: `foc${randomBytes(4).toString('hex')}`, windowSize: policy.windowSize });
});

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise((resolve) => {
          // A hanging answer keeps its connection open; close() alone would wait for it.
          s.closeAllConnections();
          s.close(resolve);
        }),
    ),
  );
});

afterAll(async () => {
  await redis.quit();
});

async function failover(reactA: () => Reaction, reactB: () => Reaction) {
  const a = await scriptedGraph(reactA);
  const b = await scriptedGraph(reactB);
  servers.push(a.server, b.server);
  const adapter = (url: string) => createChatAdapter({ config: { baseUrl: url, accessToken: 't', wabaId: '1', timeoutMs: 300 }, logger: silent });
  const chat = createFailoverChatAdapter({
    upstreams: [
      { name: 'a', priority: 1, weight: 1, adapter: adapter(a.url) },
      { name: 'b', priority: 2, weight: 1, adapter: adapter(b.url) },
    ],
    breakers,
    policy,
    clock: Date.now,
    logger: silent,
    metrics: createDispatcherMetrics(),
  });
  return { chat, a, b };
}

describe('failover chat adapter', () => {
  it('sends to the primary while it is healthy', async () => {
    const { chat, b } = await failover(
      () => ok('wamid.a'),
      () => ok('wamid.b'),
    );
    await expect(chat.send(message)).resolves.toMatchObject({ upstreamMessageId: 'wamid.a' });
    expect(b.calls()).toBe(0);
  });

  it.each([
    ['503 service unavailable', graphError(503, 2)],
    ['500 something went wrong', graphError(500, 131000)],
  ])('moves a %s to the next upstream in the same call, and counts it against the breaker', async (_what, reaction) => {
    const { chat, a } = await failover(
      () => reaction,
      () => ok('wamid.b'),
    );
    await expect(chat.send(message)).resolves.toMatchObject({ upstreamMessageId: 'wamid.b' });
    expect(a.calls()).toBe(1);
    expect((await breakers.read('a')).recent).toEqual([false]);
  });

  it('does not move a permanent refusal, and counts it as a healthy answer', async () => {
    const { chat, b } = await failover(
      () => graphError(400, 131026),
      () => ok('wamid.b'),
    );
    await expect(chat.send(message)).rejects.toMatchObject({ kind: 'unreachable' });
    expect(b.calls()).toBe(0);
    expect((await breakers.read('a')).recent).toEqual([true]);
  });

  it('does not move throttling: the job is delayed instead', async () => {
    const { chat, b } = await failover(
      () => graphError(429, 130429),
      () => ok('wamid.b'),
    );
    await expect(chat.send(message)).rejects.toMatchObject({ kind: 'throttled' });
    expect(b.calls()).toBe(0);
  });

  it('does not move a timeout: the first upstream may have taken the message', async () => {
    const { chat, b } = await failover(
      () => 'hang',
      () => ok('wamid.b'),
    );
    await expect(chat.send(message)).rejects.toMatchObject({ kind: 'transient' });
    expect(b.calls()).toBe(0);
    expect((await breakers.read('a')).recent).toEqual([false]);
  });

  it('skips an upstream whose breaker is open', async () => {
    const { chat, a } = await failover(
      () => graphError(503, 2),
      () => ok('wamid.b'),
    );
    for (let i = 0; i < 10; i += 1) await chat.send(message);
    expect(await breakers.read('a')).toMatchObject({ state: 'open' });
    await expect(chat.send(message)).resolves.toMatchObject({ upstreamMessageId: 'wamid.b' });
    expect(a.calls()).toBe(10);
  });
});
