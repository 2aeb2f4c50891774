// Accept throughput: POST /v1/messages on the real gateway (auth, rate limit, ajv, Idempotency-Key,
// BullMQ enqueue) against a bare express handler returning the same 202 body, in the same run.
// Usage: npm run build && [GATEWAY_WORKERS=auto] node bench/accept.mjs [seconds=10] [connections=50]
// GATEWAY_WORKERS is passed on to the gateway (docs/running.md#gateway-workers): unset, one process. The
// baseline is always one bare express process; the output names the gateway's process count beside it.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { devstack, runAutocannon, startBareExpress, summarise } from './lib.mjs';
import { cpuMs, measureRss, treeCpuMeter } from './process-tree.mjs';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 50);
const gatewayWorkers = process.env.GATEWAY_WORKERS ?? '1';

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
  GATEWAY_WORKERS: gatewayWorkers,
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

/**
 * Runs a measurement and adds the server's CPU milliseconds per completed request (all its processes: the
 * cluster primary and workers), and its peak RSS: on a shared machine the requests per second follow the
 * other jobs' load, the CPU a request costs much less so.
 */
async function measured(name, pid, opts) {
  const cpu = treeCpuMeter(pid);
  const redisStart = cpuMs(redis.child.pid);
  const { result, rss } = await measureRss(pid, () => runAutocannon(opts));
  const row = summarise(name, result);
  const perRequest = (ms) => Number((ms / Math.max(1, result.requests.total)).toFixed(3));
  // Redis's CPU beside the server's: the bare baseline uses no Redis, so its figure shows the idle cost.
  return { ...row, cpu_ms_per_request: perRequest(cpu.elapsedMs()), redis_cpu_ms_per_request: perRequest(cpuMs(redis.child.pid) - redisStart), ...rss };
}

try {
  // Warm both (JIT, connection pools), then measure: baseline first, then the gateway.
  await runAutocannon({ ...request(`http://127.0.0.1:${barePort}`, true), duration: 2 });
  await runAutocannon({ ...request(gateway.url, true), duration: 2 });
  const baseline = await measured('bare express 202', bare.pid, request(`http://127.0.0.1:${barePort}`, true));
  const ours = await measured('POST /v1/messages', gateway.child.pid, request(gateway.url, true));
  const rows = [baseline, ours];
  console.table(rows);
  const load = readFileSync('/proc/loadavg', 'utf8').trim();
  console.log(
    JSON.stringify({
      bench: 'accept',
      seconds,
      connections,
      gateway_workers: gatewayWorkers,
      loadavg: load,
      baseline,
      gateway: ours,
      ratio: Number((ours.rps / baseline.rps).toFixed(3)),
      cpu_ratio: Number((baseline.cpu_ms_per_request / ours.cpu_ms_per_request).toFixed(3)),
    }),
  );
} finally {
  bare.kill('SIGTERM');
  await gateway.stop();
  await redis.stop();
  await database.drop();
  await postgres.stop();
}
