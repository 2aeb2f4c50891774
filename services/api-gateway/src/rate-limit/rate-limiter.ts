import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { resetSeconds } from './rate-limit-headers';

export const RATE_LIMIT_WINDOW_SECONDS = 1;

export interface RateLimitDecision {
  allowed: boolean;
  quota: number;
  remaining: number;
  /** Seconds until the oldest admission leaves the window, i.e. until a refused request could pass. */
  resetSeconds: number;
}

export type RateLimiter = (keyId: string, quota: number) => Promise<RateLimitDecision>;

/**
 * A sliding-window log: one sorted set per key holds the Redis-clock time (µs) of each request admitted
 * within the last window. The script drops the entries that left the window, admits the request if
 * fewer than `quota` remain, and answers the count and the oldest entry. Redis' own clock decides, so
 * gateways with skewed clocks still share one window; the set never holds more than `quota` members.
 * KEYS[1] the key's set; ARGV: window µs, quota, a member unique to this request.
 */
const SLIDING_WINDOW_SCRIPT = `
local now = redis.call('TIME')
local now_us = tonumber(now[1]) * 1000000 + tonumber(now[2])
local window_us = tonumber(ARGV[1])
local quota = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_us - window_us)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < quota then
  redis.call('ZADD', KEYS[1], now_us, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], math.ceil(window_us / 1000) + 1)
  count = count + 1
  allowed = 1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local oldest_us = now_us
if oldest[2] then oldest_us = tonumber(oldest[2]) end
return { allowed, count, now_us - oldest_us }
`;

type SlidingWindowReply = [allowed: number, count: number, oldestAgeUs: number];

interface RedisWithSlidingWindow extends Redis {
  rateLimitSlidingWindow(key: string, windowUs: number, quota: number, member: string): Promise<SlidingWindowReply>;
}

function withSlidingWindowCommand(redis: Redis): RedisWithSlidingWindow {
  const extended = redis as RedisWithSlidingWindow;
  // ioredis sends it as EVALSHA and loads the script again only after NOSCRIPT (a Redis restart).
  if (typeof extended.rateLimitSlidingWindow !== 'function') {
    redis.defineCommand('rateLimitSlidingWindow', { numberOfKeys: 1, lua: SLIDING_WINDOW_SCRIPT });
  }
  return extended;
}

/**
 * Per-key limit of `quota` requests in ANY window of one second (see docs/architecture.md, rate
 * limits): a burst of the whole quota passes at once, and no sliding second ever admits more. One
 * script call per request, shared by every gateway through Redis. Fails closed: while Redis is
 * unreachable the call rejects and the caller answers 503.
 */
export function createRateLimiter(redis: Redis, keyPrefix: string): RateLimiter {
  const limiter = withSlidingWindowCommand(redis);
  const windowMs = RATE_LIMIT_WINDOW_SECONDS * 1000;
  // Members only need to be unique within one key's window; a process tag and a counter are.
  const processTag = randomBytes(6).toString('base64url');
  let sequence = 0;
  return async (keyId, quota) => {
    if (redis.status !== 'ready') throw new Error('redis is not connected');
    sequence = (sequence + 1) % Number.MAX_SAFE_INTEGER;
    const [allowed, count, oldestAgeUs] = await limiter.rateLimitSlidingWindow(
      `${keyPrefix}:gateway:rate:${keyId}`,
      windowMs * 1000,
      quota,
      `${processTag}:${sequence}`,
    );
    const reset = resetSeconds(windowMs - Number(oldestAgeUs) / 1000);
    return { allowed: allowed === 1, quota, remaining: quota - Number(count), resetSeconds: reset };
  };
}
