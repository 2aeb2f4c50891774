// A webhook receiver down for a compressed "10 minutes" under load: first unreachable (process killed), then up
// but answering 503. The retry schedule is the default one divided by CHAOS_TIME_SCALE, so the outage spans the
// same retries as 10 real minutes would. Every event must reach the receiver afterwards, and every retried
// event must carry the same `webhook-id` (the event id) as its failed attempts.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeRefused, devstack, sleep, startMessageLoad, startWorld, untilSimSends } from '../lib.mjs';

const require = createRequire(import.meta.url);
const { DEFAULT_RETRY_SCHEDULE_MS } = require('../../packages/webhooks/dist/index.js');

export const name = 'webhook-outage';
export const target = 'every event delivered later, same webhook-id';
const SCALE = Number(process.env.CHAOS_TIME_SCALE ?? 100);
const OUTAGE_MS = 600_000 / SCALE;
const RECEIVER = new URL('../../e2e/webhooks-receiver.mjs', import.meta.url).pathname;

/** e2e/webhooks-receiver.mjs as a process, restartable on the same port; it logs every answered delivery. */
function receiverProcess(logFile) {
  let child;
  let port = 0;
  return {
    async start() {
      child = spawn(process.execPath, [RECEIVER], { env: { ...process.env, PORT: String(port), LOG_FILE: logFile }, stdio: ['ignore', 'pipe', 'inherit'] });
      port = await new Promise((resolve, reject) => {
        child.stdout.once('data', (chunk) => resolve(JSON.parse(chunk.toString()).port));
        child.once('exit', () => reject(new Error('webhook receiver exited')));
      });
    },
    url: (path) => `http://127.0.0.1:${port}${path}`,
    behave: (path, behaviour) => fetch(`http://127.0.0.1:${port}/__control${path}`, { method: 'PUT', body: JSON.stringify(behaviour) }),
    received: () =>
      existsSync(logFile)
        ? readFileSync(logFile, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l))
        : [],
    async kill() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

export async function run({ postgresUrl }) {
  const schedule = DEFAULT_RETRY_SCHEDULE_MS.map((ms) => Math.round(ms / SCALE));
  const folder = mkdtempSync(join(tmpdir(), 'sb-chaos-receiver-'));
  const receiver = receiverProcess(join(folder, 'deliveries.jsonl'));
  await receiver.start();
  const world = await startWorld({
    postgresUrl,
    workers: ['dispatcher', 'webhook-delivery'],
    env: {
      TARGET_ALLOW_HTTP: 'true',
      TARGET_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_SCHEDULE_MS: schedule.join(','),
    },
  });
  try {
    const registered = await world.api('POST', '/v1/webhooks', { url: receiver.url('/hook'), events: ['*'] });
    if (registered.status !== 201) throw new Error(`POST /v1/webhooks answered ${registered.status}: ${JSON.stringify(registered.body)}`);
    const load = startMessageLoad(world, { rate: 10 });
    await untilSimSends(world, 20, 'the first sends before the outage');
    // First half of the outage: nothing listens on the port (connection refused).
    await receiver.kill();
    const downAt = Date.now();
    await sleep(OUTAGE_MS / 2);
    // Second half: the receiver is back on the same port but answers 503, so the failed attempts it logs show their webhook-id.
    await receiver.start();
    await receiver.behave('/hook', { status: 503 });
    await sleep(OUTAGE_MS / 2);
    await receiver.behave('/hook', { status: 200 });
    const upAt = Date.now();
    await sleep(2_000);
    await load.stop();

    const eventIds = async () => (await world.db.query('SELECT id FROM events WHERE account_id = $1', [world.accountId])).rows.map((r) => r.id);
    const deliveredIds = () =>
      new Set(
        receiver
          .received()
          .filter((d) => d.status === 200)
          .map((d) => d.headers['webhook-id']),
      );
    // Every event the store holds, delivered; the last retries of the scaled schedule come within about 25 s.
    const missing = await devstack
      .eventually(
        async () => {
          const delivered = deliveredIds();
          return (await eventIds()).filter((id) => !delivered.has(id));
        },
        (m) => m.length === 0,
        { what: 'every event delivered', timeoutMs: 120_000, intervalMs: 500 },
      )
      .catch(async () => {
        const delivered = deliveredIds();
        return (await eventIds()).filter((id) => !delivered.has(id));
      });
    const events = await eventIds();
    const received = receiver.received();
    const failedIds = new Set(received.filter((d) => d.status === 503).map((d) => d.headers['webhook-id']));
    const delivered = deliveredIds();
    const retriedWithOtherId = [...failedIds].filter((id) => !delivered.has(id));
    const { rows } = await world.db.query(
      `SELECT count(DISTINCT d.event_id)::int AS retried FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id
        WHERE d.account_id = $1 AND a.status_code IS DISTINCT FROM 200`,
      [world.accountId],
    );
    const lastAt = Math.max(...received.filter((d) => d.status === 200).map((d) => d.at));
    const catchUpSeconds = (lastAt - upAt) / 1000;
    const outageSeconds = (upAt - downAt) / 1000;
    return {
      ok: events.length > 0 && missing.length === 0 && failedIds.size > 0 && retriedWithOtherId.length === 0,
      figure:
        `${events.length - missing.length}/${events.length} events delivered, ${rows[0].retried} retried (${failedIds.size} seen failing with 503), ` +
        `${retriedWithOtherId.length} with another webhook-id; outage ${outageSeconds.toFixed(1)} s = ${((outageSeconds * SCALE) / 60).toFixed(1)} min at 1/${SCALE}, ` +
        `caught up ${catchUpSeconds.toFixed(1)} s after (= ${((catchUpSeconds * SCALE) / 60).toFixed(0)} min) (refused sends: ${describeRefused(load.refused)})`,
      details: {
        events: events.length,
        missing: missing.slice(0, 5),
        retried: rows[0].retried,
        failed_seen: failedIds.size,
        scale: SCALE,
        schedule_ms: schedule,
      },
    };
  } finally {
    await world.stop();
    await receiver.kill();
    rmSync(folder, { recursive: true, force: true });
  }
}
