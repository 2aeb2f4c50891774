// Batch accept throughput: messages accepted per second through POST /v1/messages/batch against
// single-message POST /v1/messages on the same gateway, in the same run; with the gateway's peak RSS.
// Usage: npm run build && node bench/batch.mjs [seconds=10] [batchSize=1000] [singleConnections=50] [batchConnections=4]
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { devstack, runAutocannon, summarise } from './lib.mjs';

const seconds = Number(process.argv[2] ?? 10);
const batchSize = Number(process.argv[3] ?? 1000);
const singleConnections = Number(process.argv[4] ?? 50);
const batchConnections = Number(process.argv[5] ?? 4);

/** Resident set of a process from /proc, in MB: VmRSS now and VmHWM (its peak so far). */
function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

async function measured(pid, run) {
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid).rss)), 250);
  try {
    return { result: await run(), peakRssMb: peak };
  } finally {
    clearInterval(timer);
  }
}

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
const pid = gateway.child.pid;
const { key } = await devstack.createAccountKey(database.url, { account: 'bench', mode: 'test', rateLimitPerSecond: 10_000_000 });

const single = JSON.stringify({ channel: 'sms', recipient: '+447911123400', content: { text: 'Your code is 123456' } });
// Distinct recipients, as in a campaign; per-item text like a personalised message.
const batch = JSON.stringify({
  channel: 'sms',
  metadata: { campaign: 'bench' },
  messages: Array.from({ length: batchSize }, (_, i) => ({ recipient: `+4479111${String(i).padStart(5, '0')}`, content: { text: `Hello customer ${i}, your code is ${100000 + i}` } })),
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
  const idle = rssMb(pid);
  // Warm both paths (JIT, pools), then measure: single first, then batch.
  await runAutocannon(request('/v1/messages', single, singleConnections, 2));
  await runAutocannon(request('/v1/messages/batch', batch, batchConnections, 2));
  const s = await measured(pid, () => runAutocannon(request('/v1/messages', single, singleConnections, seconds)));
  const b = await measured(pid, () => runAutocannon(request('/v1/messages/batch', batch, batchConnections, seconds)));
  // From the totals: a batch run completes few requests per second, so the per-second average rounds badly.
  const perSecond = (result, perRequest) => Math.round(((result.requests.total - result.non2xx) * perRequest) / result.duration);
  const singleRow = { ...summarise('POST /v1/messages', s.result), messages_per_s: perSecond(s.result, 1), peak_rss_mb: s.peakRssMb };
  const batchRow = { ...summarise(`POST /v1/messages/batch (${batchSize})`, b.result), messages_per_s: perSecond(b.result, batchSize), peak_rss_mb: b.peakRssMb };
  console.table([singleRow, batchRow]);
  console.log(
    JSON.stringify({
      bench: 'batch',
      seconds,
      batch_size: batchSize,
      single: singleRow,
      batch: batchRow,
      ratio: Number((batchRow.messages_per_s / singleRow.messages_per_s).toFixed(2)),
      gateway_rss_mb: { idle: idle.rss, peak: rssMb(pid).peak },
    }),
  );
} finally {
  await gateway.stop();
  await redis.stop();
  await database.drop();
  await postgres.stop();
}
