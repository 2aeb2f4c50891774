// Shared chaos plumbing: a private world (database, Redis with AOF always, the services as processes), a
// steady bounded load of POST /v1/messages, and the checks every case makes: each 202 ends delivered, and
// carrier-sim saw exactly one accepted send for it. Uses the built dist packages (npm run build).
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';

const require = createRequire(import.meta.url);
export const devstack = require('../packages/devstack/dist/index.js');
export const pg = require('pg');

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const log = (msg) => process.stderr.write(`[chaos] ${msg}\n`);

/** `npm run chaos -- --echo …`: every world's services copy their output to ours (devstack's startStack `echo`). */
const echo = process.argv.includes('--echo');

let lastDiagnosis = [];
/** The service processes of the last world stopped: whether each still ran, and the end of its output. */
export const lastWorldDiagnosis = () => lastDiagnosis;

/**
 * One case's world. `postgresUrl` is a server base URL (a fresh database is made on it); Redis is private,
 * started here: one server, or with `redisCluster` (devstack's startRedisCluster options) a Redis Cluster,
 * whose services then get REDIS_CLUSTER_NODES and a hash-tagged prefix. `workers` and `env` go to devstack's startStack.
 */
export async function startWorld({ postgresUrl, workers = ['dispatcher'], env = {}, dispatcherEnv = {}, gatewayEnv = {}, simEnv = {}, redisCluster }) {
  const database = await devstack.createTestDatabase(postgresUrl);
  const redis = redisCluster ? await devstack.startRedisCluster(redisCluster) : await devstack.startRedis();
  const tag = `chaos${randomBytes(4).toString('hex')}`;
  let stack;
  try {
    stack = await devstack.startStack({
      databaseUrl: database.url,
      redisUrl: redis.url,
      ...(redisCluster ? { redisClusterNodes: redis.nodes } : {}),
      prefix: redisCluster ? `{${tag}}` : tag,
      workers,
      env,
      // Short lock and stall times: a killed worker's jobs are taken over in seconds, as in production
      // they would be after LOCK_DURATION_MS (docs/architecture.md).
      dispatcherEnv: { LOCK_DURATION_MS: '2000', RECONCILE_TIMEOUT_MS: '3000', ...dispatcherEnv },
      gatewayEnv,
      simEnv,
      echo,
    });
  } catch (error) {
    await redis.stop();
    await database.drop();
    throw error;
  }
  // Every service process of the world, restarts included, for the diagnosis of a failed case.
  const processes = Object.values(stack.services);
  const startService = stack.startService;
  stack.startService = async (...args) => {
    const service = await startService(...args);
    processes.push(service);
    return service;
  };
  const { key, accountId } = await devstack.createAccountKey(database.url, {
    account: 'chaos',
    mode: 'test',
    rateLimitPerSecond: 1_000_000,
    secretsKeys: stack.secretsKeys,
  });
  const db = new pg.Pool({ connectionString: database.url, max: 2 });
  db.on('error', () => undefined);
  const world = {
    database,
    redis,
    stack,
    key,
    accountId,
    db,
    async api(method, path, body) {
      const res = await fetch(`${stack.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    async stop() {
      lastDiagnosis = processes.map((p) => ({ service: p.name, pid: p.child.pid, exit: p.child.exitCode ?? p.child.signalCode ?? 'running', logs: p.logs() }));
      await stack.stop();
      await db.end().catch(() => undefined);
      await world.redis.stop().catch(() => undefined);
      await database.drop().catch(() => undefined);
    },
  };
  return world;
}

/** Recipients …10 to …99 behave normally in carrier-sim (docs/sandbox.md#sandbox-numbers). */
const recipientOf = (i) => `+4479111234${String(10 + (i % 90)).padStart(2, '0')}`;

/**
 * A steady, bounded load: `rate` POST /v1/messages per second, at most `maxInFlight` at once, SMS and RCS
 * alternately, each with a unique text that names it at carrier-sim. Records every answer. `api` defaults to
 * fetch through world.api.
 */
export function startMessageLoad(world, { rate = 20, maxInFlight = 20, tag = randomBytes(3).toString('hex'), api = world.api } = {}) {
  const accepted = []; // { id, text, channel }
  const refused = { status: new Map(), errors: new Map() };
  const pending = new Set();
  let i = 0;
  let stopped = false;
  const one = async () => {
    const n = i++;
    const channel = n % 2 ? 'sms' : 'rcs';
    const text = `chaos ${tag} ${n}`;
    try {
      // A third of the load travels in the bulk lane, so every fault hits both lanes' queues (docs/messages.md#traffic-lanes).
      const lane = n % 3 === 0 ? { traffic_class: 'bulk' } : {};
      const res = await api('POST', '/v1/messages', { channel, recipient: recipientOf(n), content: { text }, ...lane });
      if (res.status === 202) accepted.push({ id: res.body.id, text, channel });
      else refused.status.set(res.status, (refused.status.get(res.status) ?? 0) + 1);
    } catch (error) {
      const code = error.cause?.code ?? error.code ?? error.message;
      refused.errors.set(code, (refused.errors.get(code) ?? 0) + 1);
    }
  };
  const timer = setInterval(
    () => {
      if (stopped || pending.size >= maxInFlight) return;
      const p = one().finally(() => pending.delete(p));
      pending.add(p);
    },
    Math.max(1, Math.round(1000 / rate)),
  );
  return {
    accepted,
    refused,
    sent: () => i,
    inFlight: () => pending.size,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.all([...pending]);
    },
  };
}

export const describeRefused = (refused) =>
  [...[...refused.status].map(([s, n]) => `${n}×${s}`), ...[...refused.errors].map(([e, n]) => `${n}×${e}`)].join(', ') || 'none';

/** Final statuses of these messages, from the store. */
export async function statuses(world, ids) {
  const { rows } = await world.db.query('SELECT id, status FROM messages WHERE id = ANY($1)', [ids]);
  return new Map(rows.map((r) => [r.id, r.status]));
}

const done = (channel, status) => (channel === 'sms' ? status === 'delivered' : status === 'read');

/** Waits until every accepted message is delivered (SMS) or read (RCS), or `timeoutMs` passes; returns those that are not. */
export async function waitAllDelivered(world, accepted, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  let missing = accepted;
  while (Date.now() < deadline) {
    const now = await statuses(
      world,
      missing.map((m) => m.id),
    ).catch(() => new Map());
    missing = missing.filter((m) => !done(m.channel, now.get(m.id)));
    if (missing.length === 0) return [];
    await sleep(500);
  }
  const now = await statuses(
    world,
    missing.map((m) => m.id),
  ).catch(() => new Map());
  return missing.map((m) => ({ ...m, status: now.get(m.id) ?? 'absent' }));
}

/** Accepted upstream sends per message text at carrier-sim: the texts are unique, so they name the message. */
export async function simSendsPerText(world) {
  const res = await fetch(`${world.stack.simUrl}/sim/sends`);
  const { data } = await res.json();
  const perText = new Map();
  for (const s of data) if (s.outcome === 'accepted' && s.text) perText.set(s.text, (perText.get(s.text) ?? 0) + 1);
  return perText;
}

/**
 * The at-most-once and at-least-once checks together: every 202 ended delivered, and carrier-sim accepted
 * exactly one send for each. Returns the figures a case prints.
 */
export async function deliveredOnce(world, accepted, timeoutMs) {
  const undelivered = await waitAllDelivered(world, accepted, timeoutMs);
  const perText = await simSendsPerText(world);
  const twice = accepted.filter((m) => (perText.get(m.text) ?? 0) > 1);
  const neverSent = accepted.filter((m) => (perText.get(m.text) ?? 0) === 0);
  return { accepted: accepted.length, lost: undelivered.length, duplicated: twice.length, never_sent: neverSent.length, undelivered: undelivered.slice(0, 5) };
}

/** Waits until carrier-sim has accepted at least `n` of this load's sends. */
export async function untilSimSends(world, n, what, timeoutMs = 60_000) {
  return devstack.eventually(
    async () => [...(await simSendsPerText(world)).keys()].length,
    (count) => count >= n,
    { what, timeoutMs, intervalMs: 200 },
  );
}
