import type { Redis } from 'ioredis';
import { resetSeconds } from './rate-limit-headers';

export const RATE_LIMIT_WINDOW_SECONDS = 1;

/**
 * Fixed window per key in one round trip. The window starts at the key's first request in it;
 * PTTL is read back so the answer can say when it resets, and a key that lost its expiry is repaired.
 */
const FIXED_WINDOW_LUA = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}
`;

type RateLimitRedis = Redis & { switchboardFixedWindow(key: string, windowMs: number): Promise<[number, number]> };

export interface RateLimitDecision {
  allowed: boolean;
  quota: number;
  remaining: number;
  resetSeconds: number;
}

export type RateLimiter = (keyId: string, quota: number) => Promise<RateLimitDecision>;

export function createRateLimiter(redis: Redis, keyPrefix: string): RateLimiter {
  if (!('switchboardFixedWindow' in redis)) redis.defineCommand('switchboardFixedWindow', { numberOfKeys: 1, lua: FIXED_WINDOW_LUA });
  const windowMs = RATE_LIMIT_WINDOW_SECONDS * 1000;
  return async (keyId, quota) => {
    const [count, ttlMs] = await (redis as RateLimitRedis).switchboardFixedWindow(`${keyPrefix}:gateway:rate:${keyId}`, windowMs);
    return { allowed: count <= quota, quota, remaining: Math.max(0, quota - count), resetSeconds: resetSeconds(ttlMs) };
  };
}
