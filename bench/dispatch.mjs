// Dispatch throughput (docs/performance/dispatch.md#dispatch): messages per second from the first 202 to the last
// `delivered` in the store, per channel, beside two baselines measured in the same run on the same machine:
//   - raw BullMQ: the same number of jobs through a no-op processor at the dispatcher's concurrency, on the
//     same Redis (the queue's own limit here);
//   - bare sends: the simulator alone, as fast as 50 connections (or one SMPP bind with a window) can send.
// Peak RSS of every service is sampled during each run.
// Usage: npm run build && node bench/dispatch.mjs [messages=20000] [channels=sms,rcs,chat]
import { createRequire } from 'node:module';
import { devstack, runAutocannon, simSendRequest } from './lib.mjs';
import { startCostMeter } from './process-cost.mjs';
import { bareSmppRate as bareSmppRateOf, rawBullmqRate as rawBullmqRateOf, withPeakRss as withPeakRssOf } from './baselines.mjs';

const require = createRequire(import.meta.url);
const pg = require('pg');
const { Redis } = require('ioredis');
const { customerWindowCacheKey } = require('../packages/shared-state/dist/index.js');

const total = Number(process.argv[2] ?? 20_000);
const channels = (process.argv[3] ?? 'sms,rcs,chat').split(',');
const concurrency = Number(process.env.DISPATCH_CONCURRENCY ?? 64);
const SANDBOX_SENDER = '+14155550100';

// Recipients whose last two digits are 10..89: the simulator's plain "delivered, then read" numbers.
const recipient = (i) => `+4479111${200 + Math.floor((i % 800) / 80)}${10 + (i % 80)}`;

const postgres = await devstack.ensurePostgres();
const database = await devstack.createTestDatabase(postgres.url);
const redis = await devstack.startRedis();
const stack = await devstack.startStack({
  databaseUrl: database.url,
  redisUrl: redis.url,
  simBehaviour: { receipt_delay_ms: 50, enforce_chat_window: false },
  // The bench measures the pipeline, not the per-sender limits (docs/routing.md#per-sender-limits):
  // every send here comes from the one sandbox sender, so the limits are set far above any rate reached.
  // BENCH_SMPP_BINDS / BENCH_SMPP_WINDOW set the sandbox SMSC's binds and window.
  sandboxUpstreamFields: {
    chat: { sender_rate: 1_000_000 },
    rcs: { sender_rate: 1_000_000 },
    sms: {
      sender_rate: 1_000_000,
      ...(process.env.BENCH_SMPP_BINDS ? { binds: Number(process.env.BENCH_SMPP_BINDS) } : {}),
      ...(process.env.BENCH_SMPP_WINDOW ? { window: Number(process.env.BENCH_SMPP_WINDOW) } : {}),
    },
  },
  dispatcherEnv: {
    DISPATCH_CONCURRENCY: String(concurrency),
    DB_POOL_SIZE: process.env.DB_POOL_SIZE ?? '20',
    // BENCH_PROFILE_DIR=/tmp/prof writes the dispatcher's CPU profile there when it stops.
    ...(process.env.BENCH_PROFILE_DIR
      ? { NODE_OPTIONS: `--require ${new URL('./cpu-profile.cjs', import.meta.url).pathname}`, BENCH_PROFILE_DIR: process.env.BENCH_PROFILE_DIR }
      : {}),
  },
});
const { key } = await devstack.createAccountKey(database.url, { account: 'bench', mode: 'test', rateLimitPerSecond: 10_000_000 });
const client = new pg.Client({ connectionString: database.url });
await client.connect();
const costRedis = new Redis(redis.url);

/** The processes whose CPU a run is charged with (PostgreSQL's backends are found by the cost meter). */
function costProcesses() {
  const processes = { redis: redis.child.pid };
  for (const [name, service] of Object.entries(stack.services)) processes[name] = service.child.pid;
  return processes;
}

const withPeakRss = (run) => withPeakRssOf(stack.services, run);

async function openChatWindows() {
  const connection = new Redis(redis.url);
  try {
    const pipeline = connection.pipeline();
    for (let i = 0; i < 800; i += 1) {
      const window = customerWindowCacheKey(stack.prefix, { accountId: 'sandbox', sender: SANDBOX_SENDER, customer: recipient(i) });
      pipeline.set(window, new Date().toISOString(), 'PX', 3_600_000);
    }
    await pipeline.exec();
  } finally {
    connection.disconnect();
  }
}

async function deliveredCount(channel) {
  const { rows } = await client.query("SELECT count(*) AS n FROM messages WHERE channel = $1 AND status IN ('delivered','read')", [channel]);
  return Number(rows[0].n);
}

/**
 * Waits until `expected` messages of the channel are delivered. The count scans the run's rows, and
 * PostgreSQL's CPU is part of the cost this bench reports: poll every 2 s while far from done and every
 * 250 ms over the last quarter (longer than 2 s at the rates measured here), so the poll costs little and the
 * finish time is still taken to within 250 ms.
 */
async function waitForDelivered(channel, expected) {
  const deadline = Date.now() + 900_000;
  for (;;) {
    const count = await deliveredCount(channel);
    if (count >= expected) return;
    if (Date.now() > deadline) throw new Error(`all ${channel} messages delivered: ${count} of ${expected} after 900 s`);
    await new Promise((resolve) => setTimeout(resolve, count >= expected * 0.75 ? 250 : 2_000));
  }
}

/** Receipt runs that found no attempt yet (their job runs again after a backoff), from the dispatcher's metrics. */
async function unmatchedReceiptRuns() {
  const text = await (await fetch(`${stack.services.dispatcher.url}/metrics`)).text();
  let runs = 0;
  for (const line of text.split('\n'))
    if (line.startsWith('switchboard_dispatcher_receipts_total{') && line.includes('result="unmatched"')) runs += Number(line.split(' ').pop());
  return runs;
}

async function dispatchRun(channel) {
  if (channel === 'chat') await openChatWindows();
  const unmatchedBefore = await unmatchedReceiptRuns();
  const finishCost = await startCostMeter({ processes: costProcesses(), redisClient: costRedis, pgClient: client });
  const start = Date.now();
  let i = 0;
  const accepted = await runAutocannon({
    url: stack.baseUrl,
    connections: 50,
    amount: total,
    requests: [
      {
        method: 'POST',
        path: '/v1/messages',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        setupRequest: (req) => ({ ...req, body: JSON.stringify({ channel, recipient: recipient(i++), content: { text: `bench ${i}` } }) }),
      },
    ],
  });
  const acceptSeconds = (Date.now() - start) / 1000;
  await waitForDelivered(channel, total - accepted.non2xx);
  const seconds = (Date.now() - start) / 1000;
  const cost = await finishCost(total);
  cost.unmatched_receipt_runs_per_message = Number((((await unmatchedReceiptRuns()) - unmatchedBefore) / total).toFixed(3));
  return { cost, accept_seconds: acceptSeconds, accept_per_second: Math.round(total / acceptSeconds), delivered_seconds: seconds, non2xx: accepted.non2xx };
}

const rawBullmqRate = () => rawBullmqRateOf({ redisUrl: redis.url, total, concurrency });

/** The simulator alone: bare sends on one channel, after ours so that its receipts cannot slow our run. */
async function bareSimRate(channel) {
  if (channel === 'sms') return bareSmppRate();
  const start = Date.now();
  const result = await runAutocannon({ url: stack.simUrl, connections: 50, amount: total, requests: [simSendRequest(channel, recipient)] });
  if (result.non2xx > 0) console.error(`bare ${channel} sends: ${result.non2xx} answers were not 2xx`);
  return total / ((Date.now() - start) / 1000);
}

const bareSmppRate = () => bareSmppRateOf({ smppPort: stack.simSmppPort, total, recipient, sender: SANDBOX_SENDER });

const rows = [];
try {
  const rawRate = await rawBullmqRate();
  console.log(JSON.stringify({ bench: 'dispatch', baseline: 'raw bullmq no-op', concurrency, per_second: Math.round(rawRate) }));
  for (const channel of channels) {
    const { result, peaks } = await withPeakRss(() => dispatchRun(channel));
    const bare = await bareSimRate(channel);
    const perSecond = Math.round(total / result.delivered_seconds);
    const row = {
      bench: 'dispatch',
      channel,
      messages: total,
      ...result,
      delivered_per_second: perSecond,
      raw_bullmq_per_second: Math.round(rawRate),
      ratio_to_raw_bullmq: Number((perSecond / rawRate).toFixed(3)),
      bare_sim_sends_per_second: Math.round(bare),
      peak_rss_mb: peaks,
    };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
  console.table(
    rows.map((r) => ({
      channel: r.channel,
      'accepted→delivered /s': r.delivered_per_second,
      'accept /s': r.accept_per_second,
      'raw BullMQ /s': r.raw_bullmq_per_second,
      ratio: r.ratio_to_raw_bullmq,
      'bare sim sends /s': r.bare_sim_sends_per_second,
      'peak RSS MB': Object.entries(r.peak_rss_mb)
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
    })),
  );
} finally {
  await client.end();
  costRedis.disconnect();
  await stack.stop();
  await redis.stop();
  await database.drop();
  await postgres.stop();
}
