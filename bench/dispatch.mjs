// Dispatch throughput: messages per second from accepted (202) to `delivered` in the store, through
// carrier-sim, beside a baseline of bare HTTP sends straight to the simulator's RBM API in the same run.
// Usage: npm run build && node bench/dispatch.mjs [messages=2000] [channel=rcs]
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { devstack, runAutocannon } from './lib.mjs';

const require = createRequire(import.meta.url);
const pg = require('pg');
const total = Number(process.argv[2] ?? 2000);
const channel = process.argv[3] ?? 'rcs';

const postgres = await devstack.ensurePostgres();
const database = await devstack.createTestDatabase(postgres.url);
const redis = await devstack.startRedis();
const stack = await devstack.startStack({ databaseUrl: database.url, redisUrl: redis.url, simEnv: { SIM_DELIVERY_DELAY_MS: '50', SIM_READ_DELAY_MS: '50' } });
const { key } = await devstack.createAccountKey(database.url, { account: 'bench', mode: 'test', rateLimitPerSecond: 10_000_000 });
const client = new pg.Client({ connectionString: database.url });
await client.connect();

// Recipients whose last two digits are 10..89: the simulator's plain "delivered, then read" numbers.
const recipient = (i) => `+4479111${200 + Math.floor((i % 800) / 80)}${10 + (i % 80)}`;

try {
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
  await devstack.eventually(
    async () => Number((await client.query("SELECT count(*) AS n FROM messages WHERE status IN ('delivered','read')")).rows[0].n),
    (count) => count >= total,
    { timeoutMs: 300_000, intervalMs: 250, what: 'all messages delivered' },
  );
  const seconds = (Date.now() - start) / 1000;
  // Baseline, measured after ours so that the receipts it provokes (for ids we never sent) cannot slow
  // our measurement down: the simulator alone, as many RBM sends as fast as 50 connections can make them.
  const baselineStart = Date.now();
  let n = 0;
  await runAutocannon({
    url: stack.simUrl,
    connections: 50,
    amount: total,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sandbox-rbm-token' },
        setupRequest: (req) => ({ ...req, path: `/v1/phones/${encodeURIComponent(recipient(n++))}/agentMessages?messageId=bench-${randomUUID()}&agentId=switchboard-sandbox`, body: JSON.stringify({ contentMessage: { text: 'bench' } }) }),
      },
    ],
  });
  const baselineRate = total / ((Date.now() - baselineStart) / 1000);

  const row = { messages: total, channel, accept_seconds: acceptSeconds, delivered_seconds: seconds, delivered_per_second: Math.round(total / seconds), non2xx: accepted.non2xx };
  console.table([{ name: 'bare sends to the simulator', per_second: Math.round(baselineRate) }, { name: `accepted → delivered (${channel})`, per_second: row.delivered_per_second }]);
  console.log(JSON.stringify({ bench: 'dispatch', baseline_per_second: Math.round(baselineRate), ...row, ratio: Number((row.delivered_per_second / baselineRate).toFixed(3)) }));
} finally {
  await client.end();
  await stack.stop();
  await redis.stop();
  await database.drop();
  await postgres.stop();
}
