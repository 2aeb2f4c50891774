import type { Redis } from 'ioredis';

/**
 * Per-endpoint concurrency shared by every webhook-delivery process: a Redis sorted set per target
 * whose members are the attempts in flight, scored by when their hold expires. A process that dies
 * mid-attempt stops holding its slot once the score passes, so a crash never leaks capacity.
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

export function createEndpointSlots({ redis, prefix, limit, holdMs, now = Date.now }: { redis: Redis; prefix: string; limit: number; holdMs: number; now?: () => number }): EndpointSlots {
  const key = (target: string) => `${prefix}:webhook-slots:${target}`;
  return {
    async acquire(target, holder) {
      const t = now();
      const result = await redis.eval(ACQUIRE, 1, key(target), String(t), String(t + holdMs), String(limit), holder);
      return result === 1;
    },
    async release(target, holder) {
      await redis.zrem(key(target), holder);
    },
  };
}
