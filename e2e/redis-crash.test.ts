import { randomBytes } from 'node:crypto';
import {
  createAccountKey,
  createTestDatabase,
  eventually,
  startRedis,
  startStack,
  type RedisServer,
  type Stack,
  type TestDatabase,
} from '@switchboard/devstack';

/**
 * DEVELOPERS.md: a message is accepted once its job is in Redis, and Redis runs with AOF
 * `appendfsync always`, so an accepted message survives a Redis crash. Messages are accepted while no
 * dispatcher runs, Redis is SIGKILLed and restarted on the same data directory, and only then does a
 * dispatcher start: every accepted message must still be delivered, once.
 */
let database: TestDatabase;
let redis: RedisServer;
let stack: Stack;
let key: string;

beforeAll(async () => {
  database = await createTestDatabase();
  redis = await startRedis();
  stack = await startStack({ databaseUrl: database.url, redisUrl: redis.url, prefix: `e2ecrash${randomBytes(4).toString('hex')}`, workers: [] });
  ({ key } = await createAccountKey(database.url, { account: 'redis-crash', mode: 'test' }));
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await redis?.stop();
  await database?.drop();
});

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${stack.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

it('delivers every message accepted before Redis was killed, once', async () => {
  const texts = Array.from({ length: 20 }, (_, i) => `survives the crash ${i} ${randomBytes(3).toString('hex')}`);
  const ids: string[] = [];
  for (const [i, text] of texts.entries()) {
    const res = await api('POST', '/v1/messages', { channel: i % 2 ? 'sms' : 'rcs', recipient: `+4479111234${30 + i}`, content: { text } });
    expect(res.status).toBe(202);
    ids.push(res.body.id as string);
  }

  await redis.kill();
  expect((await api('POST', '/v1/messages', { channel: 'sms', recipient: '+447911123499', content: { text: 'refused' } })).status).toBe(503);
  redis = await startRedis({ port: redis.port, dir: redis.dir });
  // The gateway reconnects by itself and still finds the queued messages in the restarted Redis.
  const queued = await eventually(
    () => api('GET', `/v1/messages/${ids[0]}`),
    (r) => r.status === 200,
    { what: 'gateway back on Redis', timeoutMs: 60_000 },
  );
  expect(queued.body.status).toBe('queued');

  await stack.startService('dispatcher');
  for (const id of ids) {
    await eventually(
      () => api('GET', `/v1/messages/${id}`),
      (r) => ['delivered', 'read'].includes(r.body.status as string),
      { what: `${id} delivered`, timeoutMs: 90_000 },
    );
  }
  const sends = (await (await fetch(`${stack.simUrl}/sim/sends`)).json()) as { data: Array<{ text: string | null; outcome: string }> };
  for (const text of texts) expect(sends.data.filter((s) => s.text === text && s.outcome === 'accepted')).toHaveLength(1);
  // Generous: on a loaded machine the dispatcher's start alone can take tens of seconds; nothing here checks speed.
}, 240_000);
