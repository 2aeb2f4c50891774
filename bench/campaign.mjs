// Campaigns beside transactional traffic (docs/performance/campaign.md): lanes and fair turns measured on the
// real stack with the simulator's default receipt delays, each figure beside a baseline from the same run.
//   1. one-time passwords of another account at 4/s during a campaign: accepted → delivered p50/p95, beside the
//      same sends on an idle stack;
//   2. a 500-message campaign started right after that campaign: accepted → all delivered, beside it alone;
//   3. one account flooding POST /v1/messages over 50 connections while another sends at 4/s: p50/p95;
//   4. a large campaign through the batch endpoint: accepted → all delivered per second, beside raw BullMQ (a
//      no-op processor at the dispatcher's concurrency) and the simulator's SMSC alone;
//   5. batch accept against single accept on the same gateway, in messages per second;
// and the peak RSS of every service over the whole run.
// Usage: npm run build && node bench/campaign.mjs [campaign=20000] [flood=10000] [large=100000]
import { createRequire } from 'node:module';
import { devstack, runAutocannon } from './lib.mjs';
import { bareSmppRate, rawBullmqRate, withPeakRss } from './baselines.mjs';

const require = createRequire(import.meta.url);
const pg = require('pg');

const campaignSize = Number(process.argv[2] ?? 20_000);
const floodSize = Number(process.argv[3] ?? 10_000);
const largeSize = Number(process.argv[4] ?? 100_000);
const OTP_INTERVAL_MS = 250;
const SANDBOX_SENDER = '+14155550100';
const BATCH_SIZE = 1_000;

// Last two digits 10..99: the simulator's plain "delivered" numbers (docs/sandbox.md#sandbox-numbers).
const recipient = (k) => `+4479${String(100_000 + Math.floor(k / 90)).padStart(6, '0')}${10 + (k % 90)}`;

// The embedded server `npm start` runs, with PostgreSQL's defaults (autovacuum on). A shared server with autovacuum
// off (as on our CI machines) never gathers statistics on the fresh bench database, and its planner then scans
// message_attempts whole for every batched lookup by message id (docs/performance/campaign.md#what-is-not-reached-yet).
const postgres = await devstack.ensurePostgres({ ...process.env, TEST_DATABASE_URL: devstack.EMBEDDED_TEST_DATABASE });
const database = await devstack.createTestDatabase(postgres.url);
const redis = await devstack.startRedis();
const stack = await devstack.startStack({ databaseUrl: database.url, redisUrl: redis.url });
const client = new pg.Client({ connectionString: database.url });
await client.connect();
const accounts = {};
const accountOf = async (name) =>
  (accounts[name] ??= await devstack.createAccountKey(database.url, { account: name, mode: 'test', rateLimitPerSecond: 10_000_000 }));
const keyOf = async (name) => (await accountOf(name)).key;

async function post(account, path, body) {
  const res = await fetch(`${stack.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await keyOf(account)}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 202) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

/** Messages accepted so far per account, counted as each batch's 202 arrives. */
const answered = {};

/** Sends `size` SMS of the account in batches of 1,000, `inFlight` requests at a time. */
async function campaign(account, size, offset = 0, inFlight = 2) {
  const starts = Array.from({ length: Math.ceil(size / BATCH_SIZE) }, (_, i) => i * BATCH_SIZE);
  const send = async (start) => {
    const count = Math.min(BATCH_SIZE, size - start);
    const messages = Array.from({ length: count }, (_, i) => ({ recipient: recipient(offset + start + i), content: { text: `Spring sale ${start + i}` } }));
    await post(account, '/v1/messages/batch', { channel: 'sms', messages });
    answered[account] = (answered[account] ?? 0) + count;
  };
  for (let i = 0; i < starts.length; i += inFlight) await Promise.all(starts.slice(i, i + inFlight).map(send));
}

async function countDelivered(account) {
  const { accountId } = await accountOf(account);
  const { rows } = await client.query("SELECT count(*) AS n FROM messages WHERE account_id = $1 AND status IN ('delivered', 'read')", [accountId]);
  return Number(rows[0].n);
}

async function untilDelivered(account, expected, pollMs = 250) {
  const deadline = Date.now() + 1_800_000;
  for (;;) {
    if ((await countDelivered(account)) >= expected) return Date.now();
    if (Date.now() > deadline) throw new Error(`${account}: ${expected} delivered not reached in 30 min`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** Single sends of `account` every 250 ms while `busy()` holds, at least `min` of them; answers their ids. */
async function otpsWhile(account, busy, min = 20) {
  const ids = [];
  for (let i = 0; i < 400 && (ids.length < min || busy()); i += 1) {
    const started = Date.now();
    ids.push((await post(account, '/v1/messages', { channel: 'sms', recipient: recipient(900_000 + i), content: { text: `Your code is ${100_000 + i}` } })).id);
    await new Promise((r) => setTimeout(r, Math.max(0, OTP_INTERVAL_MS - (Date.now() - started))));
  }
  return ids;
}

/** Accepted → delivered of each message, in ms: p50 and p95. */
async function latency(ids) {
  await untilLatencies(ids);
  const { rows } = await client.query('SELECT extract(epoch FROM (delivered_at - created_at)) * 1000 AS ms FROM messages WHERE id = ANY($1::text[])', [ids]);
  const sorted = rows.map((r) => Number(r.ms)).sort((a, b) => a - b);
  const at = (q) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
  return { n: sorted.length, p50_ms: at(0.5), p95_ms: at(0.95), max_ms: Math.round(sorted[sorted.length - 1]) };
}

async function untilLatencies(ids) {
  for (let i = 0; i < 3_600; i += 1) {
    const { rows } = await client.query('SELECT count(*) AS n FROM messages WHERE id = ANY($1::text[]) AND delivered_at IS NOT NULL', [ids]);
    if (Number(rows[0].n) === ids.length) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('one-time passwords not all delivered in 30 min');
}

const rows = [];
const report = (row) => {
  rows.push(row);
  console.log(JSON.stringify({ bench: 'campaign', ...row }));
};

// A supervisor's signal stops the stack this bench started, not only the bench.
for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(
    signal,
    () =>
      void stack
        .stop()
        .finally(() => redis.stop())
        .finally(() => process.exit(1)),
  );

try {
  const { peaks } = await withPeakRss(stack.services, async () => {
    // 1. One-time passwords alone, then during a campaign of another account.
    report({ scenario: 'otp alone', ...(await latency(await otpsWhile('otp-idle', () => false))) });
    let campaignDone = false;
    const started = Date.now();
    const sending = campaign('campaign-a', campaignSize).then(() => untilDelivered('campaign-a', campaignSize));
    sending.then(() => (campaignDone = true));
    const otps = otpsWhile('otp-b', () => !campaignDone);
    // 2. A 500-message campaign of a third account, sent once A's is accepted.
    await waitForAccepted('campaign-a', campaignSize);
    const smallStart = Date.now();
    await campaign('campaign-c', 500, 500_000);
    const smallDone = await untilDelivered('campaign-c', 500);
    const aDone = await sending;
    report({ scenario: `otp during ${campaignSize} campaign`, ...(await latency(await otps)), campaign_seconds: (aDone - started) / 1000 });
    report({ scenario: `500 after ${campaignSize} campaign`, seconds: (smallDone - smallStart) / 1000 });
    const aloneStart = Date.now();
    await campaign('campaign-c-alone', 500, 600_000);
    report({ scenario: '500 alone', seconds: ((await untilDelivered('campaign-c-alone', 500)) - aloneStart) / 1000 });

    // 3. A flood of single sends from one account, another account's sends at 4/s.
    let floodDone = false;
    let n = 0;
    const flood = runAutocannon({
      url: stack.baseUrl,
      connections: 50,
      amount: floodSize,
      requests: [
        {
          method: 'POST',
          path: '/v1/messages',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${await keyOf('flood-d')}` },
          setupRequest: (req) => ({ ...req, body: JSON.stringify({ channel: 'sms', recipient: recipient(700_000 + n++), content: { text: 'Flash sale' } }) }),
        },
      ],
    })
      .then(() => untilDelivered('flood-d', floodSize))
      .then(() => (floodDone = true));
    const floodOtps = await otpsWhile('otp-e', () => !floodDone);
    await flood;
    report({ scenario: `otp during ${floodSize} single-send flood`, ...(await latency(floodOtps)) });

    // 4. A large campaign, accepted → all delivered.
    const largeStart = Date.now();
    await campaign('campaign-large', largeSize, 1_000_000, 4);
    const acceptSeconds = (Date.now() - largeStart) / 1000;
    const largeSeconds = ((await untilDelivered('campaign-large', largeSize, 1_000)) - largeStart) / 1000;
    report({ scenario: `${largeSize} campaign`, accept_seconds: acceptSeconds, delivered_per_second: Math.round(largeSize / largeSeconds) });
  });
  const raw = await rawBullmqRate({ redisUrl: redis.url, total: Math.min(largeSize, 20_000), concurrency: 64 });
  const bare = await bareSmppRate({ smppPort: stack.simSmppPort, total: Math.min(largeSize, 20_000), recipient, sender: SANDBOX_SENDER });
  report({ scenario: 'baselines', raw_bullmq_per_second: Math.round(raw), bare_smsc_sends_per_second: Math.round(bare) });

  // 5. Batch accept against single accept, on the same gateway.
  const single = await runAutocannon({
    url: stack.baseUrl,
    connections: 50,
    duration: 5,
    requests: [
      {
        method: 'POST',
        path: '/v1/messages',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${await keyOf('accept-single')}` },
        body: JSON.stringify({ channel: 'sms', recipient: recipient(5), content: { text: 'x' } }),
      },
    ],
  });
  const batchBody = JSON.stringify({
    channel: 'sms',
    messages: Array.from({ length: BATCH_SIZE }, (_, i) => ({ recipient: recipient(i), content: { text: `Hello ${i}` } })),
  });
  const batch = await runAutocannon({
    url: stack.baseUrl,
    connections: 4,
    duration: 5,
    requests: [
      {
        method: 'POST',
        path: '/v1/messages/batch',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${await keyOf('accept-batch')}` },
        body: batchBody,
      },
    ],
  });
  const singleRate = single['2xx'] / 5;
  const batchRate = (batch['2xx'] * BATCH_SIZE) / 5;
  report({
    scenario: 'accept',
    single_per_second: Math.round(singleRate),
    batch_messages_per_second: Math.round(batchRate),
    ratio: Number((batchRate / singleRate).toFixed(1)),
  });
  report({ scenario: 'peak rss', peak_rss_mb: peaks });
  console.table(rows);
} finally {
  await client.end();
  await stack.stop();
  await redis.stop();
  await database.drop();
  // The embedded server is a child of this process: left running, it keeps the bench from exiting.
  await postgres.stop();
}

/** Until every batch of the account's campaign was answered 202 (its jobs are in Redis). */
async function waitForAccepted(account, expected) {
  for (let i = 0; i < 60_000 && (answered[account] ?? 0) < expected; i += 1) await new Promise((r) => setTimeout(r, 10));
}
