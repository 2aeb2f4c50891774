import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createTestDatabase, startRedisCluster, startStack, type RedisCluster, type Stack, type TestDatabase } from '@switchboard/devstack';
import { partitionPrefixes } from '@switchboard/queues';
import { accountsPerPartition, runCampaign } from './support/partition-campaign';
import { ReceiverProcess } from './webhooks-harness';

// QUEUE_PARTITIONS=6 on a real Redis Cluster of 3 masters with one replica each (docs/storage-layout.md#redis-keys-and-cluster):
// a campaign of twelve accounts (send, replay, batch, a voice call) spreads its Redis commands over every master.
describe('queue partitions on a Redis Cluster', () => {
  const PARTITIONS = 6;
  let cluster: RedisCluster;
  let database: TestDatabase;
  let stack: Stack;
  let prefix: string;
  const receiver = new ReceiverProcess();

  /** Commands each master has run so far: the sum of `calls` over `INFO commandstats`, by port. */
  const commandsByMaster = async (): Promise<Map<number, number>> => {
    const counts = new Map<number, number>();
    for (const master of await cluster.masters()) {
      const node = new Redis({ host: master.host, port: master.port });
      try {
        const info = await node.info('commandstats');
        counts.set(
          master.port,
          [...info.matchAll(/calls=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0),
        );
      } finally {
        node.disconnect();
      }
    }
    return counts;
  };

  beforeAll(async () => {
    cluster = await startRedisCluster({ masters: 3, replicasPerMaster: 1 });
    // Six tags hash to random slots, and six random slots land two on each master only now and then: the test picks a
    // prefix whose partitions do, as an operator would (docs/operations.md#changing-queue-partitions), so that an even
    // spread is what the assertion can expect.
    for (let attempt = 0; ; attempt += 1) {
      if (attempt > 500) throw new Error('no prefix spreads six partitions two per master');
      const candidate = `{sbcp${randomBytes(4).toString('hex')}}`;
      const owners = await Promise.all(partitionPrefixes(candidate, PARTITIONS).map(async (p) => (await cluster.masterOf(`${p}:x`)).port));
      const perMaster = new Map<number, number>();
      for (const port of owners) perMaster.set(port, (perMaster.get(port) ?? 0) + 1);
      if (perMaster.size === 3 && [...perMaster.values()].every((n) => n === 2)) {
        prefix = candidate;
        break;
      }
    }
    database = await createTestDatabase();
    await receiver.start();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: cluster.url,
      redisClusterNodes: cluster.nodes,
      prefix,
      workers: ['dispatcher', 'webhook-delivery', 'voice-orchestrator'],
      env: {
        QUEUE_PARTITIONS: String(PARTITIONS),
        TARGET_ALLOW_HTTP: 'true',
        TARGET_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_RETRY_SCHEDULE_MS: '0,200,500,1000',
      },
    });
  }, 180_000);
  afterAll(async () => {
    await stack?.stop();
    await receiver.kill();
    await database?.drop();
    await cluster?.stop();
  });

  it('runs a campaign of twelve accounts with each master serving between 20 % and 45 % of the commands', async () => {
    // Two accounts in each partition: every partition carries the same traffic.
    const accounts = await accountsPerPartition(database.url, PARTITIONS, 2, 'cp');
    const before = await commandsByMaster();
    await runCampaign({ stack, receiver, accounts, batchSize: 10, voiceAccount: accounts[0], databaseUrl: database.url });
    const after = await commandsByMaster();

    const served = [...after].map(([port, total]) => ({ port, commands: total - (before.get(port) ?? 0) }));
    const all = served.reduce((sum, m) => sum + m.commands, 0);
    const shares = served.map((m) => ({ ...m, share: Math.round((m.commands / all) * 1000) / 10 }));
    process.stdout.write(`commands per master during the campaign: ${JSON.stringify(shares)}\n`);
    expect(shares).toHaveLength(3);
    for (const { share } of shares) {
      expect(share).toBeGreaterThanOrEqual(20);
      expect(share).toBeLessThanOrEqual(45);
    }
  });
});
