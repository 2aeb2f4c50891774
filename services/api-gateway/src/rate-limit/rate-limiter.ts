import type { Redis } from 'ioredis';
import { resetSeconds } from './rate-limit-headers';

export const RATE_LIMIT_WINDOW_SECONDS = 1;

export interface RateLimitDecision {
  allowed: boolean;
  quota: number;
  remaining: number;
  resetSeconds: number;
}

export type RateLimiter = (keyId: string, quota: number) => Promise<RateLimitDecision>;

export interface RateLimiterOptions {
  /** How often counts are added to the shared window in Redis. @defaultValue 20 */
  flushIntervalMs?: number;
  clock?: () => number;
}

interface WindowCount {
  window: number;
  /** The key's total in Redis for this window as of the last flush, every gateway's requests included. */
  shared: number;
  /** Requests this process admitted and has not added to Redis yet. */
  pending: number;
}

/**
 * Fixed, wall-clock-aligned one-second windows per key, counted in Redis so that every gateway shares
 * them. Each process decides from the shared total it last saw plus its own unflushed requests, and
 * adds its counts to Redis in one pipeline every `flushIntervalMs` instead of one round trip per
 * request: with one gateway the limit is exact; with several, a key can exceed its quota by what the
 * other gateways admitted since their last flush (at most one flush interval of their traffic).
 * Fails closed: while Redis is unreachable the limiter throws and the caller answers 503.
 */
export function createRateLimiter(redis: Redis, keyPrefix: string, { flushIntervalMs = 20, clock = Date.now }: RateLimiterOptions = {}): RateLimiter {
  const windowMs = RATE_LIMIT_WINDOW_SECONDS * 1000;
  const counts = new Map<string, WindowCount>();
  let flushTimer: NodeJS.Timeout | null = null;
  const redisKey = (keyId: string, window: number) => `${keyPrefix}:gateway:rate:${keyId}:${window}`;

  async function flush(): Promise<void> {
    flushTimer = null;
    const current = Math.floor(clock() / windowMs);
    const batch: Array<{ count: WindowCount; added: number; key: string }> = [];
    for (const [keyId, count] of counts) {
      // A past window's unflushed requests can no longer change any decision.
      if (count.window !== current) counts.delete(keyId);
      else if (count.pending > 0) batch.push({ count, added: count.pending, key: redisKey(keyId, count.window) });
    }
    if (batch.length === 0) return;
    const pipeline = redis.pipeline();
    for (const { key, added } of batch) pipeline.incrby(key, added).pexpire(key, windowMs * 2);
    const results = await pipeline.exec().catch(() => null);
    batch.forEach(({ count, added }, i) => {
      const [error, total] = results?.[i * 2] ?? [new Error('no reply'), null];
      if (error) return; // stays pending and is added by the next flush
      count.pending -= added;
      count.shared = Math.max(count.shared, Number(total));
    });
    if (batch.some(({ count }) => count.pending > 0)) scheduleFlush();
  }

  function scheduleFlush(): void {
    if (flushTimer) return;
    flushTimer = setTimeout(() => void flush(), flushIntervalMs);
    flushTimer.unref();
  }

  return async (keyId, quota) => {
    if (redis.status !== 'ready') throw new Error('redis is not connected');
    const now = clock();
    const window = Math.floor(now / windowMs);
    let count = counts.get(keyId);
    if (!count || count.window !== window) {
      count = { window, shared: 0, pending: 0 };
      counts.set(keyId, count);
    }
    const used = count.shared + count.pending;
    const reset = resetSeconds((window + 1) * windowMs - now);
    if (used >= quota) return { allowed: false, quota, remaining: 0, resetSeconds: reset };
    count.pending += 1;
    scheduleFlush();
    return { allowed: true, quota, remaining: quota - used - 1, resetSeconds: reset };
  };
}
