import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { startRedis, waitFor, type RedisServer } from '@switchboard/devstack';
import { MESSAGE_SEND_QUEUE } from '@switchboard/queues';
import { problemOf, startGatewayHarness, textMessage, type GatewayHarness } from './support/gateway-harness';

// REDIS_MIN_REPLICAS_ACK against a real master and its replica (docs/operations.md#redis-failover): a 202 only
// once the replica holds the job, 503 `replication_unconfirmed` while it does not, and a retry with the same
// Idempotency-Key answers the same message. Without the setting, no WAIT reaches Redis.
let master: RedisServer;
let replica: RedisServer;
let plain: GatewayHarness;
let acked: GatewayHarness;
let onMaster: Redis;
let onReplica: Redis;

beforeAll(async () => {
  master = await startRedis();
  replica = await startRedis({ replicaOf: master.port });
  plain = await startGatewayHarness({}, master.url);
  acked = await startGatewayHarness({ REDIS_MIN_REPLICAS_ACK: '1' }, master.url);
  onMaster = new Redis(master.url, { maxRetriesPerRequest: 1 });
  onReplica = new Redis(replica.url, { maxRetriesPerRequest: 1 });
});

afterAll(async () => {
  if (replica) process.kill(replica.child.pid!, 'SIGCONT');
  await plain?.close();
  await acked?.close();
  onMaster?.disconnect();
  onReplica?.disconnect();
  for (const server of [replica, master]) {
    await server?.stop();
    if (server) rmSync(server.dir, { recursive: true, force: true });
  }
});

const waitCalls = async () => Number(/cmdstat_wait:calls=(\d+)/.exec(await onMaster.info('commandstats'))?.[1] ?? 0);

/** The job as the replica holds it (read through BullMQ on the replica's own connection). */
async function jobOnReplica(prefix: string, id: string) {
  const queue = new Queue(MESSAGE_SEND_QUEUE.name, { connection: onReplica, prefix });
  try {
    return await queue.getJob(id);
  } finally {
    await queue.close();
  }
}

const send = (h: GatewayHarness, key: string, headers: Record<string, string> = {}, json = textMessage()) => h.request('/v1/messages', { key, headers, json });

describe('REDIS_MIN_REPLICAS_ACK', () => {
  it('sends no WAIT when 0, and one when 1, after which the replica holds the job', async () => {
    const { key: plainKey } = await plain.key({ mode: 'test' });
    const { key } = await acked.key({ mode: 'test' });
    await onMaster.config('RESETSTAT');
    for (const headers of [{}, { 'idempotency-key': randomUUID() }] as Array<Record<string, string>>)
      expect((await send(plain, plainKey, headers)).status).toBe(202);
    expect(await waitCalls()).toBe(0);

    const res = await send(acked, key, { 'idempotency-key': randomUUID() });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    expect(await waitCalls()).toBeGreaterThanOrEqual(1);
    // No waiting here: the 202 came after WAIT, so the replica has the job already.
    expect((await jobOnReplica(acked.prefix, id))?.id).toBe(id);
  });

  it('answers 503 replication_unconfirmed while the replica stalls, and the retry with the same key the same message', async () => {
    const { key } = await acked.key({ mode: 'test' });
    const idempotencyKey = randomUUID();
    const body = textMessage({ content: { text: 'replica stalled' } });
    const batchKey = randomUUID();
    const batch = { channel: 'sms', messages: [1, 2].map((i) => ({ recipient: `+1415555267${i}`, content: { text: `batch ${i}` } })) };
    const jobsBefore = await acked.messageQueue.count();

    process.kill(replica.child.pid!, 'SIGSTOP');
    try {
      const refused = await problemOf(await send(acked, key, { 'idempotency-key': idempotencyKey }, body));
      expect(refused).toMatchObject({
        status: 503,
        contentType: expect.stringContaining('application/problem+json'),
        body: { code: 'replication_unconfirmed', type: '/errors/replication_unconfirmed' },
      });
      const batchRefused = await problemOf(await acked.request('/v1/messages/batch', { key, headers: { 'idempotency-key': batchKey }, json: batch }));
      expect(batchRefused).toMatchObject({ status: 503, body: { code: 'replication_unconfirmed' } });
      // A replay confirms too: while the replica stalls, the stored answer is not given either.
      expect((await problemOf(await send(acked, key, { 'idempotency-key': idempotencyKey }, body))).body.code).toBe('replication_unconfirmed');
    } finally {
      process.kill(replica.child.pid!, 'SIGCONT');
    }
    await waitFor(async () => /master_link_status:up/.test(await onReplica.info('replication')), 'the replica back in sync');

    const retried = await send(acked, key, { 'idempotency-key': idempotencyKey }, body);
    expect(retried.status).toBe(202);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    const { id } = (await retried.json()) as { id: string };
    // The 503 request's job is the one message: the retries added none.
    expect(await acked.messageQueue.count()).toBe(jobsBefore + 1);
    expect((await jobOnReplica(acked.prefix, id))?.id).toBe(id);
    expect((await acked.messageQueue.getJob(id))?.data).toMatchObject({ message_id: id, content: { text: 'replica stalled' } });

    const batchRetried = await acked.request('/v1/messages/batch', { key, headers: { 'idempotency-key': batchKey }, json: batch });
    expect(batchRetried.status).toBe(202);
    expect(batchRetried.headers.get('idempotent-replayed')).toBe('true');
  });
});
