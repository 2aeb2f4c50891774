// Month-partitioned messages against an unpartitioned copy, in the same run on the same server
// (docs/storage-layout.md#time-partitioned-tables): get-by-id latency, planned for its value and as a prepared
// statement's generic plan, and the rate of batched inserts. The rows spread over twelve months.
// Usage: npm run build && node bench/partitioned-tables.mjs [rows=120000] [reads=5000]
import { createRequire } from 'node:module';
import { devstack } from './lib.mjs';

const require = createRequire(import.meta.url);
const pg = require('pg');
const { createDb, maintainMonthPartitions, monthStart } = require('../packages/store/dist/index.js');

const rows = Number(process.argv[2] ?? 120_000);
const reads = Number(process.argv[3] ?? 5_000);
const MONTHS = 12;
// One statement per batch, as the dispatcher's send batches write (docs/performance/dispatch.md#send-batches).
const INSERT_BATCH = 500;

const postgres = await devstack.ensurePostgres();
const database = await devstack.createTestDatabase(postgres.url);
const client = new pg.Client({ connectionString: database.url });
await client.connect();
const now = new Date();
// Each run makes four months (this one and three ahead): from twelve months back to now.
const db = createDb({ url: database.url, poolSize: 1 });
for (let back = MONTHS; back >= 0; back -= 4) await maintainMonthPartitions(db, { now: monthStart(now, -back) });
await db.close();
await client.query(`INSERT INTO accounts (id, name, callback_secret) VALUES ('acc_bench', 'bench', 'x')`);
await client.query('CREATE TABLE messages_flat (LIKE messages INCLUDING ALL)');

// Ids made at random instants of the last twelve months, each with a random ULID tail.
const idsSql = `SELECT 'msg_' || ulid_time_prefix((extract(epoch FROM now() - random() * interval '${MONTHS - 1} months') * 1000)::bigint)
  || substr(ulid_time_prefix((random() * 2 ^ 49)::bigint), 3) || substr(ulid_time_prefix((random() * 2 ^ 49)::bigint), 3) AS id
  FROM generate_series(1, $1)`;
const columns = `id, account_id, mode, status, channel, plan, senders, recipient, content, cost_units, sequence, created_at, updated_at`;
const values = (ids) => `SELECT id, 'acc_bench', 'test', 'delivered', 'sms', ARRAY['sms'], '{"sms":{"e164":"+14155550100"}}', '+447911123456',
  '{"text":"hello"}', 1, 3, now(), now() FROM unnest(${ids}::text[]) AS id`;

async function insertAll(table, ids) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < ids.length; i += INSERT_BATCH) {
    await client.query(`INSERT INTO ${table} (${columns}) ${values('$1')}`, [ids.slice(i, i + INSERT_BATCH)]);
  }
  return Math.round(ids.length / (Number(process.hrtime.bigint() - started) / 1e9));
}

async function readAll(table, sample, prepared) {
  const latencies = [];
  for (const [i, id] of sample.entries()) {
    const text = `SELECT * FROM ${table} WHERE id = $1 AND account_id = $2`;
    const started = process.hrtime.bigint();
    const { rows: found } = await client.query(prepared ? { name: `read-${table}`, text, values: [id, 'acc_bench'] } : { text, values: [id, 'acc_bench'] });
    latencies.push(Number(process.hrtime.bigint() - started) / 1e3);
    if (found.length !== 1) throw new Error(`read ${i} of ${table} found ${found.length} rows`);
  }
  latencies.sort((a, b) => a - b);
  return { p50_us: Math.round(latencies[Math.floor(latencies.length / 2)]), p99_us: Math.round(latencies[Math.floor(latencies.length * 0.99)]) };
}

const ids = (await client.query(idsSql, [rows])).rows.map((r) => r.id);
const result = { rows, months: MONTHS, server: (await client.query('SHOW server_version')).rows[0].server_version };
// Alternating the tables twice takes the first run's warm-up out of the comparison.
for (const pass of [1, 2]) {
  const half = ids.slice(((pass - 1) * ids.length) / 2, (pass * ids.length) / 2);
  result[`insert_rows_per_s_pass${pass}`] = { partitioned: await insertAll('messages', half), unpartitioned: await insertAll('messages_flat', half) };
}
await client.query('ANALYZE messages; ANALYZE messages_flat');
const sample = Array.from({ length: reads }, () => ids[Math.floor(Math.random() * ids.length)]);
for (const prepared of [false, true]) {
  // A prepared statement switches to its generic plan after five runs; forcing it measures that plan from the start.
  if (prepared) await client.query('SET plan_cache_mode = force_generic_plan');
  result[prepared ? 'get_by_id_generic_plan' : 'get_by_id_custom_plan'] = {
    partitioned: await readAll('messages', sample, prepared),
    unpartitioned: await readAll('messages_flat', sample, prepared),
  };
}
console.log(JSON.stringify(result, null, 2));
await client.end();
await database.drop();
await postgres.stop();
