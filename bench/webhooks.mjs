// Webhook throughput: events delivered per second (publish → fan-out → signed POST → delivered row) to a
// local receiver process, beside a bare HTTP POST loop to the same receiver in the same run.
// Also prints the store statements and Redis commands per event (server-side counters of the bench's own
// database and Redis), the peak RSS of the webhook-delivery process, and the CPU time each process of
// either path spent per event: on a shared machine the rates swing with other load, the CPU costs do not.
// Usage: npm run build && node bench/webhooks.mjs [events=5000] [concurrency=64]
// BENCH_CPU_PROF_DIR=<dir> writes a CPU profile of the webhook-delivery process there (cpu-profile.cjs).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import { devstack, runAutocannon } from './lib.mjs';
import { cpuMs } from './process-tree.mjs';

const require = createRequire(import.meta.url);
const pg = require('pg');
const { Queue } = require('bullmq');
const { Redis } = require('ioredis');
const store = require('../packages/store/dist/index.js');
const { createEventPublisher, EVENT_FANOUT_QUEUE } = require('../packages/queues/dist/index.js');
const { newId } = require('../packages/domain/dist/index.js');

const total = Number(process.argv[2] ?? 5000);
const concurrency = Number(process.argv[3] ?? 64);
const prefix = `bench${Date.now()}`;

const receiver = spawn(process.execPath, [new URL('../e2e/webhooks-receiver.mjs', import.meta.url).pathname], { stdio: ['ignore', 'pipe', 'inherit'] });
const receiverPort = await new Promise((resolve) => receiver.stdout.once('data', (c) => resolve(JSON.parse(c.toString()).port)));
const receiverUrl = `http://127.0.0.1:${receiverPort}/hook`;

const postgres = await devstack.ensurePostgres();
const database = await devstack.createTestDatabase(postgres.url);
const redis = await devstack.startRedis();
const db = store.createDb({ url: database.url, poolSize: 4 });
const client = new pg.Client({ connectionString: database.url });
await client.connect();
// The producer's connection: it commits the events, whose statements and CPU are not the webhook path's.
const producer = new pg.Client({ connectionString: database.url });
await producer.connect();
let worker;
const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
const queue = new Queue(EVENT_FANOUT_QUEUE.name, { connection, prefix });

try {
  const secrets = devstack.testSecretCipher(database.url);
  const account = await store.createAccountsRepository(db, secrets).ensure('bench-webhooks');
  await store.createWebhookEndpointsRepository(db, secrets).create({ accountId: account.id, url: receiverUrl, events: ['*'], at: new Date() });
  // Events of a realistic size: a message resource as GET returns it.
  const data = {
    id: 'msg_bench',
    status: 'delivered',
    channel: 'sms',
    channel_used: 'sms',
    recipient: '+447911123400',
    carrier_status_code: 'DELIVRD',
    sent_at: new Date().toISOString(),
    delivered_at: new Date().toISOString(),
    read_at: null,
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    cost_units: 1,
    metadata: {},
    error: null,
    attempts: [{ channel: 'sms', status: 'delivered', error_code: null, at: new Date().toISOString() }],
    sequence: 4,
  };
  const body = JSON.stringify({ id: newId('evt'), type: 'message.delivered', created_at: new Date().toISOString(), data });

  // Baseline: the same receiver, the same body, as many POSTs as `concurrency` connections can make.
  const baselineCpu = { bench: process.cpuUsage(), receiver: cpuMs(receiver.pid) };
  const baselineStart = Date.now();
  await runAutocannon({ url: receiverUrl, connections: concurrency, amount: total, method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const baselineRate = total / ((Date.now() - baselineStart) / 1000);
  const benchCpu = process.cpuUsage(baselineCpu.bench);
  const bareCpu = { autocannon: (benchCpu.user + benchCpu.system) / 1000, receiver: cpuMs(receiver.pid) - baselineCpu.receiver };

  const profileDir = process.env.BENCH_CPU_PROF_DIR;
  worker = await devstack.startService('webhook-delivery', {
    ...(profileDir ? { NODE_OPTIONS: `--require ${new URL('./cpu-profile.cjs', import.meta.url).pathname}`, BENCH_PROFILE_DIR: profileDir } : {}),
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'warn',
    SECRETS_ENCRYPTION_KEYS: devstack.testSecretsKeys(database.url),
    TARGET_ALLOW_HTTP: 'true',
    TARGET_ALLOW_PRIVATE_NETWORKS: 'true',
    // First attempts run inside the fan-out jobs, retries in delivery jobs: either way at most `concurrency` POSTs in flight, as in the bare loop.
    WEBHOOK_CONCURRENCY: String(concurrency),
    WEBHOOK_ENDPOINT_CONCURRENCY: String(concurrency),
  });
  const statementsBefore = await committedStatements(client);
  const redisBefore = await redisCommands(connection);
  let polls = 0;
  const publisher = createEventPublisher({ queue, outbox: store.createEventsRepository(db) });
  const cpuBefore = await pipelineCpu(client, connection, worker.child.pid, receiver.pid, producer);
  const start = Date.now();
  // As the dispatcher does: each batch of events committed, then published at once, so the outbox sweeper (which waits
  // OUTBOX_SWEEP_AGE_MS) leaves them to the producer. The inserts are the producer's, not the path's: their statements
  // are taken off below and their backend's CPU is not counted.
  let inserts = 0;
  for (let i = 0; i < total; i += 500) {
    const batch = Array.from({ length: Math.min(500, total - i) }, () => newId('evt'));
    await producer.query(
      `INSERT INTO events (id, account_id, type, resource_type, resource_id, sequence, data, created_at)
       SELECT id, $2, 'message.delivered', 'message', 'msg_bench', 4, $3, now() FROM unnest($1::text[]) AS id`,
      [batch, account.id, JSON.stringify(data)],
    );
    inserts += 1;
    await publisher.publish(batch.map((id) => ({ id })));
  }
  for (;;) {
    const { rows } = await client.query(
      `SELECT count(*) FILTER (WHERE status = 'delivered')::int AS n, count(*) FILTER (WHERE status = 'failed')::int AS failed FROM webhook_deliveries`,
    );
    polls += 1;
    if (rows[0].n >= total) break;
    if (rows[0].failed > 0) throw new Error(`${rows[0].failed} deliveries failed; worker output:\n${worker.logs().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const rate = total / ((Date.now() - start) / 1000);
  const peakRssMb = peakRss(worker.child.pid);
  const cpuAfter = await pipelineCpu(client, connection, worker.child.pid, receiver.pid, producer);
  const cpuPerEvent = (ms) => Number((ms / total).toFixed(3));
  const pipelineCosts = {
    webhook_delivery: cpuPerEvent(cpuAfter.worker - cpuBefore.worker),
    redis: cpuPerEvent(cpuAfter.redis - cpuBefore.redis),
    postgres_backends: cpuPerEvent([...cpuAfter.postgres].reduce((sum, [pid, ms]) => sum + ms - (cpuBefore.postgres.get(pid) ?? 0), 0)),
    receiver: cpuPerEvent(cpuAfter.receiver - cpuBefore.receiver),
  };
  const pipelineTotal = Object.values(pipelineCosts).reduce((a, b) => a + b, 0);
  const bareTotal = (bareCpu.autocannon + bareCpu.receiver) / total;
  // A backend publishes its counters when it exits (the worker's) or when told to (this client's); the
  // bench's own polls and counter reads are taken off.
  await worker.stop();
  await client.query('SELECT pg_stat_force_next_flush()');
  const statements = (await committedStatements(client)) - statementsBefore - polls - inserts - 2;
  const redisAfter = await redisCommands(connection);
  if (process.env.BENCH_DETAIL) console.error(await topRedisCommands(connection, total));
  const perEvent = (n) => Number((n / total).toFixed(2));
  console.log(
    JSON.stringify(
      {
        events: total,
        concurrency,
        bare_post_per_s: Math.round(baselineRate),
        webhook_events_delivered_per_s: Math.round(rate),
        ratio: Number((rate / baselineRate).toFixed(3)),
        store_statements_per_event: perEvent(statements),
        redis_commands_per_event: perEvent(redisAfter.commands - redisBefore.commands),
        redis_script_calls_per_event: perEvent(redisAfter.scripts - redisBefore.scripts),
        webhook_delivery_peak_rss_mb: peakRssMb,
        bare_post_cpu_ms_per_request: {
          autocannon: cpuPerEvent(bareCpu.autocannon),
          receiver: cpuPerEvent(bareCpu.receiver),
          total: Number(bareTotal.toFixed(3)),
        },
        webhook_cpu_ms_per_event: { ...pipelineCosts, total: Number(pipelineTotal.toFixed(3)) },
        cpu_cost_ratio: Number((bareTotal / pipelineTotal).toFixed(3)),
      },
      null,
      2,
    ),
  );
} finally {
  await worker?.stop();
  await queue.close();
  connection.disconnect();
  await client.end();
  await producer.end();
  await db.close();
  receiver.kill('SIGTERM');
  await redis.stop();
  await database.drop();
  await postgres.stop();
}

/** Statements PostgreSQL committed in this database: each autocommit statement is one transaction. */
async function committedStatements(pgClient) {
  const { rows } = await pgClient.query(`SELECT xact_commit::bigint AS n FROM pg_stat_database WHERE datname = current_database()`);
  return Number(rows[0].n);
}

/** Redis commands processed (commands run inside scripts included) and script calls (EVAL/EVALSHA, BullMQ's too). */
async function redisCommands(redisClient) {
  const stats = await redisClient.info('stats');
  const commandstats = await redisClient.info('commandstats');
  const calls = (name) => Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(commandstats)?.[1] ?? 0);
  return { commands: Number(/total_commands_processed:(\d+)/.exec(stats)[1]), scripts: calls('evalsha') + calls('eval') };
}

/** Peak resident set size (VmHWM) in MB, read from /proc while the process lives; null elsewhere. */
function peakRss(pid) {
  try {
    const kb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
    return Math.round(kb / 1024);
  } catch {
    return null;
  }
}

/** BENCH_DETAIL=1: Redis commands by server time, per event (calls inside scripts are listed too). */
async function topRedisCommands(redisClient, events) {
  const text = await redisClient.info('commandstats');
  const rows = [...text.matchAll(/cmdstat_(\S+):calls=(\d+),usec=(\d+)/g)].map(([, name, calls, usec]) => ({
    name,
    calls_per_event: Number((calls / events).toFixed(2)),
    usec: Number(usec),
  }));
  return rows.sort((a, b) => b.usec - a.usec).slice(0, 15);
}

/**
 * CPU spent so far by each process of the webhook path: the worker, Redis, this database's backends (but the
 * producer's), the receiver.
 */
async function pipelineCpu(pgClient, redisClient, workerPid, receiverPid, producerClient) {
  const cpu = await redisClient.info('cpu');
  const redisMs = (Number(/used_cpu_user:([\d.]+)/.exec(cpu)[1]) + Number(/used_cpu_sys:([\d.]+)/.exec(cpu)[1])) * 1000;
  const { rows } = await pgClient.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> $1', [producerClient.processID]);
  return { worker: cpuMs(workerPid), redis: redisMs, postgres: new Map(rows.map((r) => [r.pid, cpuMs(r.pid)])), receiver: cpuMs(receiverPid) };
}
