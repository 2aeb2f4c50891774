import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { Queue } from 'bullmq';
import { createTestDatabase, startStack, type Stack, type TestDatabase } from '@switchboard/devstack';
import { MESSAGE_SEND_QUEUE, partitionPrefixes, PROVIDER_CALLBACKS_QUEUE } from '@switchboard/queues';
import { accountsPerPartition, runCampaign } from './support/partition-campaign';
import { ReceiverProcess, TEST_REDIS_URL } from './webhooks-harness';

// QUEUE_PARTITIONS=3 on one Redis node (a node ignores hash tags; docs/storage-layout.md#redis-keys-and-cluster): every
// account's messages, batches, replays and webhooks go through its own partition's keys, and two dispatchers pinned
// to different partitions (SERVE_PARTITIONS) between them serve all three.
describe('queue partitions on one Redis node', () => {
  const PARTITIONS = 3;
  const prefix = `{sbqp${randomBytes(4).toString('hex')}}`;
  let database: TestDatabase;
  let stack: Stack;
  const receiver = new ReceiverProcess();

  beforeAll(async () => {
    database = await createTestDatabase();
    await receiver.start();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: TEST_REDIS_URL,
      prefix,
      workers: ['webhook-delivery', 'voice-orchestrator'],
      env: {
        QUEUE_PARTITIONS: String(PARTITIONS),
        TARGET_ALLOW_HTTP: 'true',
        TARGET_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_RETRY_SCHEDULE_MS: '0,200,500,1000',
      },
    });
    await stack.startService('dispatcher', { SERVE_PARTITIONS: '0,1' });
    await stack.startService('dispatcher', { SERVE_PARTITIONS: '2' });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await receiver.kill();
    await database?.drop();
  });

  it('sends, replays, batches and calls for accounts of every partition, each under its partition’s keys', async () => {
    const accounts = await accountsPerPartition(database.url, PARTITIONS, 1, 'qp');
    await runCampaign({ stack, receiver, accounts, batchSize: 4, voiceAccount: accounts[0], databaseUrl: database.url });

    const redis = new Redis(TEST_REDIS_URL);
    try {
      const prefixes = partitionPrefixes(prefix, PARTITIONS);
      for (const account of accounts) {
        const own = prefixes[account.partition];
        // The message's own job, the batch's jobs and the idempotency key of the account are in its partition.
        expect(await redis.keys(`${own}:message-send:*`)).not.toHaveLength(0);
        expect(await redis.keys(`${own}:gateway:idempotency:*`)).not.toHaveLength(0);
        expect(await redis.keys(`${own}:webhook-delivery:*`)).not.toHaveLength(0);
      }
      // No job went through the shared tag: messages go by account, the upstreams' callbacks (SMPP receipts) by job id.
      for (const contract of [MESSAGE_SEND_QUEUE, PROVIDER_CALLBACKS_QUEUE]) {
        const shared = new Queue(contract.name, { connection: redis, prefix });
        const counts = await shared.getJobCounts('completed', 'failed', 'wait', 'active', 'delayed', 'prioritized');
        await shared.close();
        expect(Object.values(counts).every((n) => n === 0)).toBe(true);
      }
      const callbacks = await Promise.all(prefixes.map(async (p) => (await redis.keys(`${p}:provider-callbacks:*`)).length));
      expect(callbacks.some((n) => n > 0)).toBe(true);
      const voiceCalls = await redis.keys(`${prefixes[accounts[0].partition]}:voice-calls:*`);
      expect(voiceCalls).not.toHaveLength(0);
    } finally {
      redis.disconnect();
    }
  });

  it('refuses to start a service with another QUEUE_PARTITIONS while a scheduled message waits, naming how to drain', async () => {
    const [account] = await accountsPerPartition(database.url, PARTITIONS, 1, 'qp-guard');
    const sendAt = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await fetch(`${stack.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'sms', recipient: '+447911124010', content: { text: 'later' }, send_at: sendAt }),
    });
    expect(scheduled.status).toBe(202);
    const refused = stack.startService('webhook-delivery', { QUEUE_PARTITIONS: '2' });
    await expect(refused).rejects.toThrow(/QUEUE_PARTITIONS is 2, but Redis holds unfinished jobs written with QUEUE_PARTITIONS=3/);
    await expect(refused).rejects.toThrow(/keep the workers running with QUEUE_PARTITIONS=3 until this check finds no job/);
  }, 60_000);
});
