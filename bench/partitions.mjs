// Partitioned queues on a real 3-master Redis Cluster (docs/capacity.md, docs/storage-layout.md#redis-keys-and-cluster):
// the same stack, accounts and load with QUEUE_PARTITIONS=1 (the baseline: every key on one hash tag, so one master)
// and with QUEUE_PARTITIONS=3, in the same run, on the same cluster. For each it prints
//   - single accept: POST /v1/messages from several accounts over 50 connections, requests per second;
//   - a campaign: every account sends its batch at once, accepted → all delivered, messages per second;
//   - Redis CPU per message on each master (INFO CPU before and after, over the whole run of that setting), and each
//     master's share of the commands (INFO commandstats).
// This machine has two cores, so the point is where Redis' work goes, not more speed.
// Usage: npm run build && node bench/partitions.mjs [campaign messages=12000] [accept seconds=5]
import { createRequire } from 'node:module';
import { devstack, runAutocannon } from './lib.mjs';

const require = createRequire(import.meta.url);
const pg = require('pg');
const { Redis } = require('ioredis');
const { partitionOf, partitionPrefixes } = require('../packages/queues/dist/index.js');

const campaignSize = Number(process.argv[2] ?? 12_000);
const acceptSeconds = Number(process.argv[3] ?? 5);
const ACCOUNTS = 12;
const BATCH_SIZE = 1_000;
const SETTINGS = [1, 3];

// Last two digits 10..99: the simulator's plain "delivered" numbers (docs/sandbox.md#sandbox-numbers).
const recipient = (k) => `+4479${String(100_000 + Math.floor(k / 90)).padStart(6, '0')}${10 + (k % 90)}`;

/** CPU seconds and command counts of one master, from INFO. */
async function masterMeter(node) {
  const [host, port] = node.split(':');
  const redis = new Redis({ host, port: Number(port), lazyConnect: true });
  await redis.connect();
  const info = `${await redis.info('cpu')}\n${await redis.info('commandstats')}`;
  await redis.quit();
  const field = (name) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  const calls = [...info.matchAll(/^cmdstat_[^:]+:calls=(\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
  return { cpu: field('used_cpu_user') + field('used_cpu_sys'), calls };
}

const meterAll = (nodes) => Promise.all(nodes.map(masterMeter));

const postgres = await devstack.ensurePostgres({ ...process.env, TEST_DATABASE_URL: devstack.EMBEDDED_TEST_DATABASE });
const cluster = await devstack.startRedisCluster({ masters: 3 });
const rows = [];
const report = (row) => {
  rows.push(row);
  console.log(JSON.stringify({ bench: 'partitions', ...row }));
};

/** A prefix whose partitions' tags land on as many masters as there are partitions (up to 3): an even spread to measure. */
async function spreadPrefix(partitions) {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const candidate = `{sbp${partitions}x${attempt}}`;
    const owners = new Set(await Promise.all(partitionPrefixes(candidate, partitions).map(async (p) => (await cluster.masterOf(`${p}:x`)).port)));
    if (owners.size === Math.min(partitions, 3)) return candidate;
  }
  throw new Error(`no prefix spreads ${partitions} partitions over the masters`);
}

/** ACCOUNTS accounts, the same number in each partition. */
async function accountsOf(databaseUrl, partitions) {
  const kept = [];
  for (let i = 0; kept.length < ACCOUNTS; i += 1) {
    const created = await devstack.createAccountKey(databaseUrl, { account: `p${partitions}-${i}`, mode: 'test', rateLimitPerSecond: 10_000_000 });
    const partition = partitionOf(created.accountId, partitions);
    if (kept.filter((a) => a.partition === partition).length < ACCOUNTS / partitions) kept.push({ ...created, partition });
  }
  return kept;
}

async function measure(partitions) {
  const database = await devstack.createTestDatabase(postgres.url);
  const stack = await devstack.startStack({
    databaseUrl: database.url,
    redisUrl: cluster.url,
    redisClusterNodes: cluster.nodes,
    prefix: await spreadPrefix(partitions),
    env: { QUEUE_PARTITIONS: String(partitions) },
  });
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const accounts = await accountsOf(database.url, partitions);
    const before = await meterAll(cluster.nodes);

    // Single accept, every account in turn.
    let n = 0;
    const single = await runAutocannon({
      url: stack.baseUrl,
      connections: 50,
      duration: acceptSeconds,
      requests: [
        {
          method: 'POST',
          path: '/v1/messages',
          setupRequest: (req) => {
            const k = n++;
            return {
              ...req,
              headers: { 'content-type': 'application/json', authorization: `Bearer ${accounts[k % ACCOUNTS].key}` },
              body: JSON.stringify({ channel: 'sms', recipient: recipient(k), content: { text: 'x' } }),
            };
          },
        },
      ],
    });
    const singleAccepted = single['2xx'];

    // A campaign of every account at once.
    const perAccount = Math.ceil(campaignSize / ACCOUNTS);
    const started = Date.now();
    await Promise.all(
      accounts.map(async (account, a) => {
        for (let start = 0; start < perAccount; start += BATCH_SIZE) {
          const count = Math.min(BATCH_SIZE, perAccount - start);
          const messages = Array.from({ length: count }, (_, i) => ({
            recipient: recipient(1_000_000 + a * perAccount + start + i),
            content: { text: 'Sale' },
          }));
          const res = await fetch(`${stack.baseUrl}/v1/messages/batch`, {
            method: 'POST',
            headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ channel: 'sms', messages }),
          });
          if (res.status !== 202) throw new Error(`batch answered ${res.status}: ${await res.text()}`);
        }
      }),
    );
    const total = singleAccepted + perAccount * ACCOUNTS;
    for (;;) {
      const { rows: counted } = await client.query("SELECT count(*) AS n FROM messages WHERE status IN ('delivered', 'read')");
      if (Number(counted[0].n) >= total) break;
      if (Date.now() - started > 1_800_000) throw new Error(`${total} delivered not reached in 30 min`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const campaignSeconds = (Date.now() - started) / 1000;
    const after = await meterAll(cluster.nodes);
    const calls = after.map((m, i) => m.calls - before[i].calls);
    const callsTotal = calls.reduce((a, b) => a + b, 0);
    report({
      partitions,
      single_accept_per_second: Math.round(singleAccepted / acceptSeconds),
      campaign_delivered_per_second: Math.round((perAccount * ACCOUNTS) / campaignSeconds),
      redis_cpu_ms_per_message: after.map((m, i) => Number((((m.cpu - before[i].cpu) * 1000) / total).toFixed(3))),
      command_share_percent: calls.map((c) => Math.round((100 * c) / callsTotal)),
    });
  } finally {
    await client.end();
    await stack.stop();
    await database.drop();
  }
}

try {
  for (const partitions of SETTINGS) await measure(partitions);
  console.table(rows);
} finally {
  await cluster.stop();
  await postgres.stop();
}
