import { CUSTOMER_SERVICE_WINDOW_MS, type CustomerWindowKey } from '@switchboard/domain';

/**
 * The Redis key the gateway checks on the hot path. Only its existence matters: the dispatcher sets it
 * to expire when the window closes, so an absent key is a closed window. The `customer_windows` row in
 * PostgreSQL is the record; this key is its copy for the gateway.
 */
export function customerWindowCacheKey(prefix: string, w: CustomerWindowKey): string {
  return `${prefix}:csw:${w.accountId}:${w.sender}:${w.customer}`;
}

/** Milliseconds the window opened by `lastInboundAt` still has at `now`; 0 once it closed. */
function remainingMs(lastInboundAt: Date, now: number): number {
  return Math.max(0, lastInboundAt.getTime() + CUSTOMER_SERVICE_WINDOW_MS - now);
}

/** The Redis commands the window cache needs; an ioredis client fits. */
export interface WindowCacheRedis {
  set(key: string, value: string, mode: 'PX', milliseconds: number): Promise<unknown>;
  exists(key: string): Promise<number>;
}

/** Written by the dispatcher when a customer writes, read by the gateway before a free-form chat send. */
export function createCustomerWindowCache(deps: { redis: WindowCacheRedis; prefix: string }) {
  return {
    /** Sets the key to expire with the window; a window already closed writes nothing. */
    async remember(w: CustomerWindowKey, lastInboundAt: Date, now: number): Promise<void> {
      const remaining = remainingMs(lastInboundAt, now);
      if (remaining > 0) await deps.redis.set(customerWindowCacheKey(deps.prefix, w), lastInboundAt.toISOString(), 'PX', remaining);
    },
    async isOpen(w: CustomerWindowKey): Promise<boolean> {
      return (await deps.redis.exists(customerWindowCacheKey(deps.prefix, w))) > 0;
    },
  };
}
export type CustomerWindowCache = ReturnType<typeof createCustomerWindowCache>;
