import { randomBytes, randomUUID } from 'node:crypto';
import { Cluster } from 'ioredis';
import {
  createAccountKey,
  createTestDatabase,
  eventually,
  startRedisCluster,
  startStack,
  type RedisCluster,
  type Stack,
  type TestDatabase,
} from '@switchboard/devstack';
import { ReceiverProcess, verify } from './webhooks-harness';

// accept → dispatch → webhook through a real 3-master Redis Cluster (docs/storage-layout.md#redis-keys-and-cluster):
// the gateway, the dispatcher and webhook-delivery as processes with REDIS_CLUSTER_NODES, a hash-tagged prefix.
describe('Redis Cluster', () => {
  let cluster: RedisCluster;
  let database: TestDatabase;
  let stack: Stack;
  const receiver = new ReceiverProcess();
  const prefix = `{sbrc${randomBytes(4).toString('hex')}}`;

  beforeAll(async () => {
    cluster = await startRedisCluster({ masters: 3 });
    database = await createTestDatabase();
    await receiver.start();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: cluster.url,
      redisClusterNodes: cluster.nodes,
      prefix,
      workers: ['dispatcher', 'webhook-delivery'],
      env: {
        TARGET_ALLOW_HTTP: 'true',
        TARGET_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_RETRY_SCHEDULE_MS: '0,200,500,1000',
      },
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await receiver.kill();
    await database?.drop();
    await cluster?.stop();
  });

  it('accepts, dispatches and delivers the webhooks, replays an idempotent request, with every key in one slot', async () => {
    const { key, callbackSecret } = await createAccountKey(database.url, { account: 'cluster', scopes: ['*'] });
    const idempotencyKey = randomUUID();
    const send = () =>
      fetch(`${stack.baseUrl}/v1/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
        body: JSON.stringify({ channel: 'sms', recipient: '+447911123401', content: { text: 'cluster' }, callback_url: receiver.url('/cluster') }),
      });
    const first = await send();
    expect(first.status).toBe(202);
    const { id } = (await first.json()) as { id: string };
    const again = await send();
    expect(again.status).toBe(202);
    expect(((await again.json()) as { id: string }).id).toBe(id);

    const received = await eventually(
      async () => receiver.received('/cluster').map((d) => verify(callbackSecret, d)),
      (events) => ['message.sent', 'message.delivered'].every((t) => events.some((e) => e.type === t)),
      { what: 'message.sent and message.delivered through the cluster', timeoutMs: 90_000 },
    );
    for (const event of received) expect(event.data.id).toBe(id);

    // A batch's jobs go to Redis in one script call (docs/messages.md#batch-sends): in the queue's slot too.
    const batch = await fetch(`${stack.baseUrl}/v1/messages/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ channel: 'sms', messages: [1, 2].map((i) => ({ recipient: `+44791112341${i}`, content: { text: `cluster batch ${i}` } })) }),
    });
    expect(batch.status).toBe(202);
    const { results } = (await batch.json()) as { results: Array<{ id: string }> };
    const states = await eventually(
      () =>
        Promise.all(
          results.map(
            async (r) =>
              ((await (await fetch(`${stack.baseUrl}/v1/messages/${r.id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { status: string })
                .status,
          ),
        ),
      (s) => s.every((status) => status === 'delivered' || status === 'read'),
      { what: 'both batch items delivered through the cluster', timeoutMs: 90_000 },
    );
    expect(states).toHaveLength(2);

    // The scrape-time queue readings and Bull Board's API run their commands through the cluster too.
    const metrics = await (await fetch(`${stack.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/switchboard_queue_jobs\{queue="message-send",state="waiting"\} \d+/);
    expect(metrics).toMatch(/switchboard_idempotency_replays_total\{route="\/v1\/messages"\} 1/);
    const admin = await createAccountKey(database.url, { account: 'cluster-admin', scopes: ['admin'] });
    const board = await fetch(`${stack.baseUrl}/admin/queues/api/queues?activeQueue=message-send&page=1&jobsPerPage=10`, {
      headers: { authorization: `Bearer ${admin.key}` },
    });
    expect(board.status).toBe(200);
    const { queues } = (await board.json()) as { queues: Array<{ name: string; counts: Record<string, number> }> };
    expect(queues.find((q) => q.name === 'message-send')?.counts.completed).toBeGreaterThanOrEqual(1);

    // The keys the run wrote: the queues, idempotency and rate-limit keys, all under the tag, so in one slot.
    const client = new Cluster(cluster.nodes.map((n) => ({ host: n.split(':')[0], port: Number(n.split(':')[1]) })));
    try {
      await client.ping(); // nodes() is empty until the client has read the slot map
      const keys = new Set<string>();
      for (const node of client.nodes('master')) for (const k of await node.keys(`${prefix}*`)) keys.add(k);
      const names = [...keys];
      expect(names.some((k) => k.includes(':message-send:'))).toBe(true);
      expect(names.some((k) => k.includes(':webhook-delivery:'))).toBe(true);
      expect(names.some((k) => k.includes(':idempotency:'))).toBe(true);
      const slots = new Set(await Promise.all(names.map((k) => client.cluster('KEYSLOT', k))));
      expect(slots.size).toBe(1);
    } finally {
      client.disconnect();
    }
  });
});
