// Batch accept throughput: messages accepted per second through POST /v1/messages/batch against
// single-message POST /v1/messages on the same gateway, in the same run; with the gateway's peak RSS.
// Usage: npm run build && [GATEWAY_WORKERS=auto] node bench/batch.mjs [seconds=10] [batchSize=1000] [singleConnections=50] [batchConnections=4]
// GATEWAY_WORKERS is passed on to the gateway (docs/running.md#gateway-workers): unset, one process. RSS is
// reported summed over the gateway's processes and per process (primary, largest worker). Beside each rate: the
// CPU milliseconds the gateway (all its processes) and Redis used per 1,000 accepted messages, the steadier
// figure on a shared machine.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { devstack, runAutocannon, summarise } from './lib.mjs';
import { cpuMs, measureRss, treeCpuMeter, treeRss } from './process-tree.mjs';

const seconds = Number(process.argv[2] ?? 10);
const batchSize = Number(process.argv[3] ?? 1000);
const singleConnections = Number(process.argv[4] ?? 50);
const batchConnections = Number(process.argv[5] ?? 4);
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
const pid = gateway.child.pid;
const { key } = await devstack.createAccountKey(database.url, { account: 'bench', mode: 'test', rateLimitPerSecond: 10_000_000 });

const single = JSON.stringify({ channel: 'sms', recipient: '+447911123400', content: { text: 'Your code is 123456' } });
// Distinct recipients, as in a campaign; per-item text like a personalised message.
const batch = JSON.stringify({
  channel: 'sms',
  metadata: { campaign: 'bench' },
  messages: Array.from({ length: batchSize }, (_, i) => ({
    recipient: `+4479111${String(i).padStart(5, '0')}`,
    content: { text: `Hello customer ${i}, your code is ${100000 + i}` },
  })),
});
const request = (path, body, connections, duration) => ({
  url: gateway.url,
  method: 'POST',
  connections,
  duration,
  headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
  requests: [{ method: 'POST', path, body, setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'idempotency-key': randomUUID() } }) }],
});

try {
  const idle = treeRss(pid);
  // Warm both paths (JIT, pools), then measure: single first, then batch.
  await runAutocannon(request('/v1/messages', single, singleConnections, 2));
  await runAutocannon(request('/v1/messages/batch', batch, batchConnections, 2));
  const cpuPer1000 = async (run, messagesOf) => {
    const gatewayCpu = treeCpuMeter(pid);
    const redisStart = cpuMs(redis.child.pid);
    const measured = await run();
    const per1000 = (ms) => Number(((ms * 1000) / Math.max(1, messagesOf(measured.result))).toFixed(1));
    return {
      ...measured,
      cpu: { gateway_cpu_ms_per_1000: per1000(gatewayCpu.elapsedMs()), redis_cpu_ms_per_1000: per1000(cpuMs(redis.child.pid) - redisStart) },
    };
  };
  const accepted = (perRequest) => (result) => (result.requests.total - result.non2xx) * perRequest;
  const s = await cpuPer1000(() => measureRss(pid, () => runAutocannon(request('/v1/messages', single, singleConnections, seconds))), accepted(1));
  const b = await cpuPer1000(() => measureRss(pid, () => runAutocannon(request('/v1/messages/batch', batch, batchConnections, seconds))), accepted(batchSize));
  // From the totals: a batch run completes few requests per second, so the per-second average rounds badly.
  const perSecond = (result, perRequest) => Math.round(((result.requests.total - result.non2xx) * perRequest) / result.duration);
  const singleRow = { ...summarise('POST /v1/messages', s.result), messages_per_s: perSecond(s.result, 1), ...s.cpu, ...s.rss };
  const batchRow = { ...summarise(`POST /v1/messages/batch (${batchSize})`, b.result), messages_per_s: perSecond(b.result, batchSize), ...b.cpu, ...b.rss };
  console.table([singleRow, batchRow]);
  console.log(
    JSON.stringify({
      bench: 'batch',
      seconds,
      gateway_workers: gatewayWorkers,
      loadavg: readFileSync('/proc/loadavg', 'utf8').trim(),
      batch_size: batchSize,
      single: singleRow,
      batch: batchRow,
      ratio: Number((batchRow.messages_per_s / singleRow.messages_per_s).toFixed(2)),
      gateway_rss_mb_idle: idle,
    }),
  );
} finally {
  await gateway.stop();
  await redis.stop();
  await database.drop();
  await postgres.stop();
}
