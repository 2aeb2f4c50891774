// A Redis Cluster master SIGKILLed under load, its replica promoted, with REDIS_MIN_REPLICAS_ACK=1: every 202
// delivered once (docs/operations.md#redis-failover). Unlike redis-kill the dead master's data is never read
// again: what survives is what its replica held when the 202 was sent. The killed node is then started again (a
// pod restarting) and rejoins as the new master's replica: until it is in sync, the promoted master has no
// replica to confirm a write, and the gateway answers 503 replication_unconfirmed.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { deliveredOnce, describeRefused, devstack, sleep, startMessageLoad, startWorld, untilSimSends } from '../lib.mjs';

export const name = 'redis-failover';
export const target = 'every 202 delivered once, 0 lost';

const CLIENTS = 3;
const FAILOVER_TIMEOUT_MS = 30_000;
/** Tries per message of the retrying client: 503 and 409 `idempotency_key_in_use` last until a replica is in sync again. */
const CLIENT_TRIES = 40;

/**
 * The client docs/errors.md#replication_unconfirmed asks for: each message with its own Idempotency-Key, sent
 * again with it after a 503 or a 409 until it gets another answer. A retry that made a second message would
 * show as a text sent twice.
 */
const retryingApi = (world, tally) => async (method, path, body) => {
  const headers = { authorization: `Bearer ${world.key}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() };
  for (let attempt = 1; ; attempt += 1) {
    const res = await fetch(`${world.stack.baseUrl}${path}`, { method, headers, body: JSON.stringify(body) });
    const text = await res.text();
    if ((res.status !== 503 && res.status !== 409) || attempt === CLIENT_TRIES) return { status: res.status, body: text ? JSON.parse(text) : undefined };
    if (attempt === 1) tally.retried += 1;
    await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
  }
};

/** Shorter than the cluster's node timeout (2 s), so the stalled replica is not itself counted failed. */
const REPLICA_STALL_MS = 1_500;

export async function run({ postgresUrl }) {
  const world = await startWorld({
    postgresUrl,
    redisCluster: { masters: 3, replicasPerMaster: 1 },
    // Every process that acknowledges a write outside Redis waits for the replica: the gateway's 202, the dispatcher's
    // deliver_sm_resp, and every event publisher (docs/operations.md#redis-failover).
    env: { REDIS_MIN_REPLICAS_ACK: '1' },
  });
  try {
    // Two clients that take a 503 as final, and one that retries it with the same Idempotency-Key.
    const tally = { retried: 0 };
    const loads = Array.from({ length: CLIENTS }, (_, i) =>
      startMessageLoad(world, { rate: 8, maxInFlight: i === 0 ? 40 : 8, ...(i === 0 ? { api: retryingApi(world, tally) } : {}) }),
    );
    const accepted = () => loads.flatMap((load) => load.accepted);
    await untilSimSends(world, 40, 'the first sends before the failover');
    // The master of the prefix's hash tag holds every queue of the world: computed, as the tag is.
    const victim = await world.redis.masterOf(world.stack.prefix);
    const replica = (await world.redis.replicas()).find((r) => r.masterPort === victim.port);
    // The replica stalls first, so the master dies holding writes its replica never got: without
    // REDIS_MIN_REPLICAS_ACK the 202s of that moment are lost with it; with it, they were 503s. The dispatcher
    // stalls too, so that those jobs are still queued (a backlog), not already sent, when the master dies.
    // Stopping the replica alone would not do: what the master already wrote to the link waits in the replica's
    // socket buffer and arrives after SIGCONT. Cutting the link too leaves the writes from then on to the master only.
    const dispatcher = world.stack.services.dispatcher.child;
    dispatcher.kill('SIGSTOP');
    await world.redis.kill(replica.port, 'SIGSTOP');
    const cut = spawnSync('redis-cli', ['-p', String(victim.port), 'client', 'kill', 'type', 'replica'], { encoding: 'utf8' });
    if (cut.status !== 0 || cut.stdout.trim() !== '1') throw new Error(`could not cut the replica's link: ${cut.stdout}${cut.stderr}`);
    await sleep(REPLICA_STALL_MS);
    const acceptedBefore = accepted().length;
    await world.redis.kill(victim.port, 'SIGKILL');
    await world.redis.kill(replica.port, 'SIGCONT');
    dispatcher.kill('SIGCONT');
    const killedAt = Date.now();
    const promoted = await devstack.eventually(
      () => world.redis.masterOf(world.stack.prefix).catch(() => null),
      (master) => master !== null && master.port !== victim.port,
      { what: "a replica promoted for the prefix's slot", timeoutMs: FAILOVER_TIMEOUT_MS, intervalMs: 200 },
    );
    const failoverSeconds = (Date.now() - killedAt) / 1000;
    const acceptedAtFailover = accepted().length;
    await world.redis.restart(victim.port);
    // The load goes on against the promoted master; the gateway and the dispatcher must follow the new slot map.
    await devstack.eventually(
      async () => accepted().length,
      (n) => n >= acceptedAtFailover + 40,
      { what: '202s again after the failover', timeoutMs: 30_000, intervalMs: 200 },
    );
    const resumedSeconds = (Date.now() - killedAt) / 1000;
    await sleep(3_000);
    await Promise.all(loads.map((load) => load.stop()));
    const all = accepted();
    const result = await deliveredOnce(world, all, 90_000);
    const refused = loads.map((load) => describeRefused(load.refused)).join('; ');
    return {
      ok: result.accepted > 0 && result.lost === 0 && result.duplicated === 0,
      figure:
        `${result.accepted} accepted (${acceptedBefore} before the kill, ${all.length - acceptedAtFailover} after the promotion), ` +
        `${result.lost} lost, ${result.duplicated} twice (replica cut off and dispatcher stalled ${REPLICA_STALL_MS / 1000} s, then master :${victim.port} killed, replica :${promoted.port} promoted after ${failoverSeconds.toFixed(1)} s, ` +
        `202s again ${resumedSeconds.toFixed(1)} s after the kill; ` +
        `${tally.retried} sent again with their key after a 503 or 409; refused per client (the first retrying): ${refused})`,
      details: {
        ...result,
        retried_with_key: tally.retried,
        failover_seconds: failoverSeconds,
        resumed_seconds: resumedSeconds,
        killed: victim.port,
        promoted: promoted.port,
      },
    };
  } finally {
    await world.stop();
  }
}
