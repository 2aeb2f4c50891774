// Accept throughput: POST /v1/messages on the real gateway (auth, rate limit, ajv, Idempotency-Key,
// BullMQ enqueue) against a bare express handler returning the same 202 body, in the same run.
// Usage: npm run build && node bench/accept.mjs [seconds=10] [connections=50]
import { randomUUID } from 'node:crypto';
import { devstack, runAutocannon, startBareExpress, summarise } from './lib.mjs';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 50);

const postgres = await devstack.ensurePostgres();
const database = await devstack.createTestDatabase(postgres.url);
const redis = await devstack.startRedis();
const gatewayPort = await devstack.freePort();
const gateway = await devstack.startService('api-gateway', {
  DATABASE_URL: database.url,
  REDIS_URL: redis.url,
  QUEUE_PREFIX: 'bench',
  LOG_LEVEL: 'warn',
  PORT: String(gatewayPort),
  SECRETS_ENCRYPTION_KEYS: devstack.testSecretsKeys(database.url),
});
const { key } = await devstack.createAccountKey(database.url, { account: 'bench', mode: 'test', rateLimitPerSecond: 10_000_000 });
const barePort = await devstack.freePort();
const bare = await startBareExpress(barePort);

const body = JSON.stringify({ channel: 'sms', recipient: '+447911123400', content: { text: 'Your code is 123456' } });
const request = (url, withKey) => ({
  url,
  method: 'POST',
  connections,
  duration: seconds,
  headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
  requests: [
    {
      method: 'POST',
      path: '/v1/messages',
      body,
      setupRequest: (req) => ({ ...req, headers: { ...req.headers, ...(withKey ? { 'idempotency-key': randomUUID() } : {}) } }),
    },
  ],
});

try {
  // Warm both (JIT, connection pools), then measure: baseline first, then the gateway.
  await runAutocannon({ ...request(`http://127.0.0.1:${barePort}`, true), duration: 2 });
  await runAutocannon({ ...request(gateway.url, true), duration: 2 });
  const baseline = summarise('bare express 202', await runAutocannon(request(`http://127.0.0.1:${barePort}`, true)));
  const ours = summarise('POST /v1/messages', await runAutocannon(request(gateway.url, true)));
  const rows = [baseline, ours];
  console.table(rows);
  console.log(JSON.stringify({ bench: 'accept', seconds, connections, baseline, gateway: ours, ratio: Number((ours.rps / baseline.rps).toFixed(3)) }));
} finally {
  bare.kill('SIGTERM');
  await gateway.stop();
  await redis.stop();
  await database.drop();
  await postgres.stop();
}
