import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createAccountKey, createTestDatabase, eventually, startStack, type Stack, type TestDatabase } from '@switchboard/devstack';
import { partitionLayoutKey, partitionOf } from '@switchboard/queues';
import { TEST_REDIS_URL } from './webhooks-harness';

// Changing QUEUE_PARTITIONS on a drained deployment (docs/operations.md#changing-queue-partitions): the services restart
// with the new count, record it, and an opt-out made before the change still holds after it, although its Redis copy
// now lives under another partition's tag.
describe('changing QUEUE_PARTITIONS after a drain', () => {
  const prefix = `{sbqc${randomBytes(4).toString('hex')}}`;
  let database: TestDatabase;
  let stack: Stack;

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({ databaseUrl: database.url, redisUrl: TEST_REDIS_URL, prefix, env: { QUEUE_PARTITIONS: '3' } });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await database?.drop();
  });

  it('records the new count and keeps every suppression', async () => {
    // An account whose partition index differs between the two counts: its suppression key then has to move.
    let key = '';
    for (let i = 0; key === ''; i += 1) {
      const created = await createAccountKey(database.url, { account: `qc-${i}`, scopes: ['*'] });
      if (partitionOf(created.accountId, 3) !== partitionOf(created.accountId, 2)) key = created.key;
    }
    const send = (recipient: string) =>
      fetch(`${stack.baseUrl}/v1/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ channel: 'sms', recipient, content: { text: 'hello' } }),
      });
    const status = async (id: string) =>
      ((await (await fetch(`${stack.baseUrl}/v1/messages/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { status: string }).status;
    const optedOut = '+447911124110';
    const suppressed = await fetch(`${stack.baseUrl}/v1/suppressions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'sms', recipient: optedOut }),
    });
    expect(suppressed.status).toBe(201);
    expect((await send(optedOut)).status).toBe(422);
    const before = (await (await send('+447911124111')).json()) as { id: string };
    await eventually(
      () => status(before.id),
      (s) => s === 'delivered',
      { what: 'the message sent before the change delivered', timeoutMs: 60_000 },
    );

    // Drained: stop everything, then start with two partitions, the dispatcher first as a rollout may.
    await stack.services.gateway.stop();
    await stack.services.dispatcher?.stop();
    await stack.startService('dispatcher', { QUEUE_PARTITIONS: '2' });
    await stack.startService('api-gateway', { QUEUE_PARTITIONS: '2' });

    const redis = new Redis(TEST_REDIS_URL);
    try {
      expect(await redis.get(partitionLayoutKey(prefix))).toBe('2');
    } finally {
      redis.disconnect();
    }
    const refused = await send(optedOut);
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { code: string }).code).toBe('recipient_opted_out');
    const after = (await (await send('+447911124112')).json()) as { id: string };
    await eventually(
      () => status(after.id),
      (s) => s === 'delivered',
      { what: 'a message sent after the change delivered', timeoutMs: 60_000 },
    );
  });
});
