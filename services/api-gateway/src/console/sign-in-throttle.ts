import type { Redis } from 'ioredis';
import { ApiError } from '@switchboard/domain';
import type { DependencyGuard } from '../http/dependency-guard';
import { CONSOLE_POLICY } from './console-policy';

/**
 * Failed sign-ins counted in Redis per email and per client address, so every gateway replica shares the count
 * (docs/console.md#sign-in). A fixed window: the first failure starts it, the limit holds until it ends.
 */
export function createSignInThrottle({ redis, prefix, guard }: { redis: Redis; prefix: string; guard: DependencyGuard }) {
  const keys = (email: string, address: string) => [`${prefix}:console:signin-failures:email:${email}`, `${prefix}:console:signin-failures:addr:${address}`];
  return {
    /** Throws 429 when either count has reached the limit. */
    async check(email: string, address: string): Promise<void> {
      const [byEmail, byAddress] = keys(email, address);
      const counts = await guard('redis', () => redis.mget(byEmail, byAddress));
      if (counts.some((c) => Number(c ?? 0) >= CONSOLE_POLICY.failedSignInLimit)) {
        const ttls = await guard('redis', () => Promise.all([redis.ttl(byEmail), redis.ttl(byAddress)]));
        throw new ApiError(429, 'rate_limited', 'Too many requests', 'Too many failed sign-ins; wait before trying again.', undefined, {
          'Retry-After': String(Math.max(1, ...ttls)),
        });
      }
    },
    async recordFailure(email: string, address: string): Promise<void> {
      await guard('redis', async () => {
        const pipeline = redis.multi();
        for (const key of keys(email, address)) pipeline.incr(key).expire(key, CONSOLE_POLICY.failedSignInWindowSeconds, 'NX');
        await pipeline.exec();
      });
    },
  };
}
export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
