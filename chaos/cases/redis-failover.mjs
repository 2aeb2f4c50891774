// A Redis Cluster master SIGKILLed under load, its replica promoted, with REDIS_MIN_REPLICAS_ACK=1: every 202
// delivered once (docs/operations.md#redis-failover). Unlike redis-kill the dead master's data is never read
// again: what survives is what its replica held when the 202 was sent. The killed node is then started again (a
// pod restarting) and rejoins as the new master's replica: until it is in sync, the promoted master has no
// replica to confirm a write, and the gateway answers 503 replication_unconfirmed.
import { spawnSync } from 'node:child_process';
import { deliveredOnce, describeRefused, devstack, sleep, startMessageLoad, startWorld, untilSimSends } from '../lib.mjs';

export const name = 'redis-failover';
export const target = 'every 202 delivered once, 0 lost';

const CLIENTS = 3;
const FAILOVER_TIMEOUT_MS = 30_000;
/** Shorter than the cluster's node timeout (2 s), so the stalled replica is not itself counted failed. */
const REPLICA_STALL_MS = 1_500;

export async function run({ postgresUrl }) {
  const world = await startWorld({
    postgresUrl,
    redisCluster: { masters: 3, replicasPerMaster: 1 },
    gatewayEnv: { REDIS_MIN_REPLICAS_ACK: '1' },
  });
  try {
    const loads = Array.from({ length: CLIENTS }, () => startMessageLoad(world, { rate: 8, maxInFlight: 8 }));
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
        `refused per client: ${refused})`,
      details: { ...result, failover_seconds: failoverSeconds, resumed_seconds: resumedSeconds, killed: victim.port, promoted: promoted.port },
    };
  } finally {
    await world.stop();
  }
}
