import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Per-endpoint concurrency shared by every webhook-delivery process: a Redis sorted set per target
 * whose members are the slots leased by processes, scored by when the lease expires. At most `limit`
 * members exist at once, and a process runs at most one attempt per member it holds, so a target never
 * has more than `limit` attempts in flight across processes.
 *
 * A process keeps a leased slot for `leaseMs` and starts as many attempts on it, one after the other,
 * as that window allows: one Redis call per lease instead of an acquire and a release per attempt.
 * The member's score is the end of the window plus `holdMs` (the longest an attempt can run, with a
 * margin), so an attempt started in the window is over before the member expires, and a process that
 * dies stops holding its slots once the scores pass: a crash never leaks capacity. A leased slot left
 * idle for a sweep interval (a quarter of `leaseMs`) goes back to Redis, so a process that has no more
 * work for a target does not keep the others from it. `leaseMs` 0 leases a slot per attempt.
 */
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
  redis.call('PEXPIREAT', KEYS[1], ARGV[2])
  return 1
end
return 0`;

export interface EndpointSlots {
  /** True when the attempt may go now; false when the target already has `limit` attempts in flight. */
  acquire(target: string, holder: string): Promise<boolean>;
  release(target: string, holder: string): Promise<void>;
}

type SlotsRedis = Redis & { webhookSlotAcquire(key: string, now: string, expiresAt: string, limit: string, member: string): Promise<number> };

/** A slot this process leased: attempts may start on it until `useUntil`. */
interface Lease {
  member: string;
  useUntil: number;
  idleSince: number;
}

export interface EndpointSlotsOptions {
  redis: Redis;
  prefix: string;
  limit: number;
  /** The longest an attempt holds its slot (the send timeout and a margin). */
  holdMs: number;
  /** How long a leased slot serves attempts before it goes back. @defaultValue 0: one lease per attempt */
  leaseMs?: number;
  now?: () => number;
}

/**
 * A leased slot is kept 1 s for attempt after attempt: long enough to spare a Redis round trip per attempt to a busy
 * target, short enough that an idle process gives it back quickly (docs/webhooks.md#one-slow-endpoint-cannot-starve-the-others).
 */
export const ENDPOINT_SLOT_LEASE_MS = 1_000;

export function createEndpointSlots({
  redis,
  prefix,
  limit,
  holdMs,
  leaseMs = 0,
  now = Date.now,
}: EndpointSlotsOptions): EndpointSlots & { close(): Promise<void> } {
  // A defined command goes as EVALSHA: the script's text is not sent, nor hashed by Redis, on every lease.
  if (!('webhookSlotAcquire' in redis)) redis.defineCommand('webhookSlotAcquire', { numberOfKeys: 1, lua: ACQUIRE });
  const client = redis as SlotsRedis;
  const key = (target: string) => `${prefix}:webhook-slots:${target}`;
  const owner = randomUUID();
  let sequence = 0;
  /** Leased slots no attempt uses right now, per target. */
  const idle = new Map<string, Lease[]>();
  /** Leased slots in use, per attempt holder. */
  const inUse = new Map<string, { target: string; lease: Lease }>();

  // Giving back is a courtesy to the other processes: a slot whose ZREM fails frees itself at its score.
  const giveBack = (target: string, members: string[]): Promise<void> =>
    members.length === 0 ? Promise.resolve() : redis.zrem(key(target), ...members).then(() => undefined);

  const takeIdle = (target: string, t: number): Lease | undefined => {
    const leases = idle.get(target);
    if (!leases) return undefined;
    const expired: string[] = [];
    let found: Lease | undefined;
    while (!found && leases.length > 0) {
      const lease = leases.pop()!;
      if (lease.useUntil > t) found = lease;
      else expired.push(lease.member);
    }
    if (leases.length === 0) idle.delete(target);
    giveBack(target, expired).catch(() => undefined);
    return found;
  };

  const sweepEveryMs = Math.max(Math.floor(leaseMs / 4), 25);
  const sweep = () => {
    const t = now();
    for (const [target, leases] of idle) {
      const keep = leases.filter((l) => l.useUntil > t && t - l.idleSince < sweepEveryMs);
      if (keep.length === leases.length) continue;
      if (keep.length === 0) idle.delete(target);
      else idle.set(target, keep);
      giveBack(
        target,
        leases.filter((l) => !keep.includes(l)).map((l) => l.member),
      ).catch(() => undefined);
    }
  };
  const timer = leaseMs > 0 ? setInterval(sweep, sweepEveryMs) : undefined;
  timer?.unref();

  return {
    async acquire(target, holder) {
      const t = now();
      const reused = takeIdle(target, t);
      if (reused) {
        inUse.set(holder, { target, lease: reused });
        return true;
      }
      const member = `${owner}:${++sequence}`;
      const granted = await client.webhookSlotAcquire(key(target), String(t), String(t + leaseMs + holdMs), String(limit), member);
      if (granted !== 1) return false;
      inUse.set(holder, { target, lease: { member, useUntil: t + leaseMs, idleSince: t } });
      return true;
    },
    async release(target, holder) {
      const held = inUse.get(holder);
      if (!held) return;
      inUse.delete(holder);
      const t = now();
      if (held.lease.useUntil <= t) return giveBack(target, [held.lease.member]);
      held.lease.idleSince = t;
      const leases = idle.get(target);
      if (leases) leases.push(held.lease);
      else idle.set(target, [held.lease]);
    },
    /** Gives back every idle leased slot; slots still in use expire with their score. */
    async close() {
      if (timer) clearInterval(timer);
      const pending = [...idle].map(([target, leases]) =>
        giveBack(
          target,
          leases.map((l) => l.member),
        ),
      );
      idle.clear();
      await Promise.all(pending);
    },
  };
}
