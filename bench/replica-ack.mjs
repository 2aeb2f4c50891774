// What REDIS_MIN_REPLICAS_ACK costs at acceptance: POST /v1/messages (with an Idempotency-Key) on two gateways
// against the same master and its replica, one with 0 (no WAIT) and one with 1 (a WAIT per group of writes,
// docs/operations.md#redis-failover), measured one after the other in the same run.
// Usage: npm run build && node bench/replica-ack.mjs [seconds=10] [connections=50]
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { devstack, runAutocannon, summarise } from './lib.mjs';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 50);

const postgres = await devstack.ensurePostgres();
const database = await devstack.createTestDatabase(postgres.url);
const master = await devstack.startRedis();
const replica = await devstack.startRedis({ replicaOf: master.port });
const startGateway = (minReplicas, prefix) =>
  devstack.startService('api-gateway', {
    DATABASE_URL: database.url,
    REDIS_URL: master.url,
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'warn',
    SECRETS_ENCRYPTION_KEYS: devstack.testSecretsKeys(database.url),
    REDIS_MIN_REPLICAS_ACK: String(minReplicas),
  });
const gateways = [
  { minReplicas: 0, service: await startGateway(0, 'bench-ack0') },
  { minReplicas: 1, service: await startGateway(1, 'bench-ack1') },
];
const { key } = await devstack.createAccountKey(database.url, { account: 'bench', mode: 'test', rateLimitPerSecond: 10_000_000 });
const onMaster = new Redis(master.url);

const body = JSON.stringify({ channel: 'sms', recipient: '+447911123400', content: { text: 'Your code is 123456' } });
const request = (url, duration = seconds) => ({
  url,
  connections,
  duration,
  requests: [
    {
      method: 'POST',
      path: '/v1/messages',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body,
      setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'idempotency-key': randomUUID() } }),
    },
  ],
});
const waitCalls = async () => Number(/cmdstat_wait:calls=(\d+)/.exec(await onMaster.info('commandstats'))?.[1] ?? 0);

try {
  for (const { service } of gateways) await runAutocannon(request(service.url, 2));
  // autocannon stops at its duration without waiting for the answers in flight; their WAITs must not count below.
  await new Promise((r) => setTimeout(r, 2_000));
  const rows = [];
  for (const { minReplicas, service } of gateways) {
    const before = await waitCalls();
    const result = await runAutocannon(request(service.url));
    const waits = (await waitCalls()) - before;
    rows.push({
      ...summarise(`REDIS_MIN_REPLICAS_ACK=${minReplicas}`, result),
      waits,
      requests_per_wait: waits ? Math.round(result.requests.total / waits) : null,
    });
  }
  console.table(rows);
  console.log(JSON.stringify({ bench: 'replica-ack', seconds, connections, rows, rps_ratio: Number((rows[1].rps / rows[0].rps).toFixed(3)) }));
} finally {
  onMaster.disconnect();
  for (const { service } of gateways) await service.stop();
  await replica.stop();
  await master.stop();
  await database.drop();
  await postgres.stop();
}
