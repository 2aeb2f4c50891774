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
 * KEYS[1] the key's set; ARGV: window µs, quota, a member unique to this request. The function is
 * also part of the send path's one script call (`idempotency.store.ts`, `reserveUnlessSuppressed`).
 */
export const SLIDING_WINDOW_LUA_FUNCTION = `
local function sliding_window(key, window_us, quota, member)
  local now = redis.call('TIME')
  local now_us = tonumber(now[1]) * 1000000 + tonumber(now[2])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now_us - window_us)
  local count = redis.call('ZCARD', key)
  local allowed = 0
  if count < quota then
    redis.call('ZADD', key, now_us, member)
    redis.call('PEXPIRE', key, math.ceil(window_us / 1000) + 1)
    count = count + 1
    allowed = 1
  end
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  local oldest_us = now_us
  if oldest[2] then oldest_us = tonumber(oldest[2]) end
  return { allowed, count, now_us - oldest_us }
end
`;
const SLIDING_WINDOW_SCRIPT = `${SLIDING_WINDOW_LUA_FUNCTION}
return sliding_window(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3])
`;

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

/** What a script call of the sliding window needs besides Redis: the key, the window and a unique member. */
export interface SlidingWindowCall {
  key: string;
  windowUs: number;
  quota: number;
  member: string;
}

export type SlidingWindowReply = [allowed: number, count: number, oldestAgeUs: number];

/** Builds the sliding window's arguments for a key, and reads its reply into a decision. */
export function createSlidingWindowCalls(keyPrefix: string) {
  const windowMs = RATE_LIMIT_WINDOW_SECONDS * 1000;
  // Members only need to be unique within one key's window; a process tag and a counter are.
  const processTag = randomBytes(6).toString('base64url');
  let sequence = 0;
  return {
    call(keyId: string, quota: number): SlidingWindowCall {
      sequence = (sequence + 1) % Number.MAX_SAFE_INTEGER;
      return { key: `${keyPrefix}:gateway:rate:${keyId}`, windowUs: windowMs * 1000, quota, member: `${processTag}:${sequence}` };
    },
    decision([allowed, count, oldestAgeUs]: SlidingWindowReply, quota: number): RateLimitDecision {
      const reset = resetSeconds(windowMs - Number(oldestAgeUs) / 1000);
      return { allowed: Number(allowed) === 1, quota, remaining: quota - Number(count), resetSeconds: reset };
    },
  };
}

/**
 * Per-key limit of `quota` requests in ANY window of one second (see docs/architecture.md, rate
 * limits): a burst of the whole quota passes at once, and no sliding second ever admits more. One
 * script call per request, shared by every gateway through Redis. Fails closed: while Redis is
 * unreachable the call rejects and the caller answers 503.
 */
export function createRateLimiter(redis: Redis, keyPrefix: string): RateLimiter {
  const limiter = withSlidingWindowCommand(redis);
  const calls = createSlidingWindowCalls(keyPrefix);
  return async (keyId, quota) => {
    if (redis.status !== 'ready') throw new Error('redis is not connected');
    const c = calls.call(keyId, quota);
    const reply = await limiter.rateLimitSlidingWindow(c.key, c.windowUs, quota, c.member);
    return calls.decision(reply, quota);
  };
}
