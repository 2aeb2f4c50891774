import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { eventually, startRedis, type RedisServer } from '@switchboard/devstack';
import { MESSAGE_SEND_QUEUE } from '@switchboard/queues';
import { problemOf, startGatewayHarness, textMessage, type GatewayHarness } from './support/gateway-harness';

let redis: RedisServer;
let h: GatewayHarness;

beforeAll(async () => {
  redis = await startRedis();
  h = await startGatewayHarness({}, redis.url);
});

afterAll(async () => {
  // The harness cleans up through this Redis, so it must be running again first.
  if (h) await h.close();
  await redis?.stop();
  if (redis) rmSync(redis.dir, { recursive: true, force: true });
});

async function countJobs(url: string): Promise<number> {
  const connection = new Redis(url, { maxRetriesPerRequest: 1 });
  const queue = new Queue(MESSAGE_SEND_QUEUE.name, { connection, prefix: h.prefix });
  try {
    return await queue.count();
  } finally {
    await queue.close();
    connection.disconnect();
  }
}

describe('Redis unavailable (docs/errors.md#unavailable: 503, nothing accepted)', () => {
  it('answers 503 at once instead of hanging, accepts nothing, and recovers when Redis is back', async () => {
    const { key } = await h.key({ mode: 'test' });
    const unseen = await h.key({ mode: 'test' });
    expect((await h.request('/v1/messages', { key, json: textMessage() })).status).toBe(202);

    await redis.kill();
    // Each request is bounded by the harness's abort signal: a hanging gateway fails the test.
    for (const headers of [{}, { 'idempotency-key': randomUUID() }] as Array<Record<string, string>>) {
      const problem = await problemOf(await h.request('/v1/messages', { key, headers, json: textMessage() }));
      expect(problem).toMatchObject({ status: 503, body: { code: 'unavailable', type: '/errors/unavailable' } });
    }
    expect((await problemOf(await h.request('/v1/messages', { key }))).status).toBe(503);
    // Authenticated requests on every route, for a key checked before or never: the rate limit cannot
    // be counted, so they fail closed with 503, never 401.
    for (const path of ['/v1/webhooks', '/v1/account/webhook-secret', '/v1/events', '/v1/templates']) {
      for (const caller of [key, unseen.key]) {
        const problem = await problemOf(await h.request(path, { key: caller }));
        expect({ path, ...problem }).toMatchObject({ path, status: 503, body: { code: 'unavailable' } });
      }
    }
    // The store still answers for keys: one it never held is refused as before.
    expect((await h.request('/v1/messages', { key: 'sk_test_0123456789abcdefghijABCDEFGHIJ' })).status).toBe(401);
    expect((await h.request('/readyz')).status).toBe(503);
    expect((await h.request('/healthz')).status).toBe(200);

    redis = await startRedis({ port: redis.port, dir: redis.dir });
    // Only the message accepted before the outage exists (AOF kept it).
    expect(await countJobs(redis.url)).toBe(1);
    const back = await eventually(
      () => h.request('/v1/messages', { key, json: textMessage() }),
      (res) => res.status !== 503,
      { what: 'the gateway to reconnect' },
    );
    expect(back.status).toBe(202);
  });
});
