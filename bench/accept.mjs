// Accept throughput: POST /v1/messages on the real gateway (auth, rate limit, ajv, Idempotency-Key,
// BullMQ enqueue) against a bare express handler returning the same 202 body, in the same run.
// Usage: npm run build && node bench/accept.mjs [seconds=10] [connections=50]
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
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

/** CPU time (user + system) a process has used so far, in ms, from /proc (clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Runs a measurement and adds the server's CPU milliseconds per completed request: on a shared machine the
 * requests per second follow the other jobs' load, the CPU a request costs much less so.
 */
async function measured(name, pid, opts) {
  const before = cpuMs(pid);
  const result = await runAutocannon(opts);
  const row = summarise(name, result);
  return { ...row, cpu_ms_per_request: Number(((cpuMs(pid) - before) / Math.max(1, result.requests.total)).toFixed(3)) };
}

try {
  // Warm both (JIT, connection pools), then measure: baseline first, then the gateway.
  await runAutocannon({ ...request(`http://127.0.0.1:${barePort}`, true), duration: 2 });
  await runAutocannon({ ...request(gateway.url, true), duration: 2 });
  const baseline = await measured('bare express 202', bare.pid, request(`http://127.0.0.1:${barePort}`, true));
  const ours = await measured('POST /v1/messages', gateway.child.pid, request(gateway.url, true));
  const rows = [baseline, ours];
  console.table(rows);
  console.log(JSON.stringify({ bench: 'accept', seconds, connections, baseline, gateway: ours, ratio: Number((ours.rps / baseline.rps).toFixed(3)), cpu_ratio: Number((baseline.cpu_ms_per_request / ours.cpu_ms_per_request).toFixed(3)) }));
} finally {
  bare.kill('SIGTERM');
  await gateway.stop();
  await redis.stop();
  await database.drop();
  await postgres.stop();
}
