import type { Redis } from 'ioredis';
import { startRedisCluster, type RedisCluster } from '@switchboard/devstack';
import { createProducerConnection } from '@switchboard/queues';
import { createReplicaAck } from '../src/replica-ack';

// On a Redis Cluster the acknowledgement's WAIT must reach the master of the prefix's slot, whatever node the
// client would pick for a keyless command: stalling another master's replica changes nothing, stalling that
// master's replica makes it fail (docs/operations.md#redis-failover).
const PREFIX = '{sbacktest}';
let cluster: RedisCluster;
let connection: Redis;

beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3, replicasPerMaster: 1 });
  connection = createProducerConnection({ redisUrl: cluster.url, redisClusterNodes: cluster.nodes });
  // No offline queue (as in the gateway, which also waits for 'ready' first).
  await new Promise((resolve) => connection.once('ready', resolve));
});

afterAll(async () => {
  connection?.disconnect();
  await cluster?.stop();
});

it("waits for the replica of the prefix's master, and only that one", async () => {
  const ack = createReplicaAck({ redis: connection, keyPrefix: PREFIX, minReplicas: 1, logger: { warn: () => undefined }, timeoutMs: 300 });
  const owner = await cluster.masterOf(`${PREFIX}:x`);
  const replicas = await cluster.replicas();
  const ownReplica = replicas.find((r) => r.masterPort === owner.port)!;
  const others = replicas.filter((r) => r.masterPort !== owner.port);
  expect(others).toHaveLength(2);

  await expect(ack()).resolves.toBeUndefined();
  for (const other of others) await cluster.kill(other.port, 'SIGSTOP');
  try {
    // Each try may land on any node if WAIT were routed without the prefix's key.
    for (let i = 0; i < 5; i += 1) await expect(ack()).resolves.toBeUndefined();
  } finally {
    for (const other of others) await cluster.kill(other.port, 'SIGCONT');
  }
  await cluster.kill(ownReplica.port, 'SIGSTOP');
  try {
    await expect(ack()).rejects.toMatchObject({ status: 503, code: 'replication_unconfirmed' });
  } finally {
    await cluster.kill(ownReplica.port, 'SIGCONT');
  }
  await expect(ack()).resolves.toBeUndefined();
});
