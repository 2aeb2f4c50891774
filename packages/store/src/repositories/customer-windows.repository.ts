import type { Queryable } from '../db';

/** WhatsApp's customer service window: free-form messages are allowed for 24 h after the customer last wrote. */
export const CUSTOMER_SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Stands in for the account in the window of the shared sandbox sender: test keys without a chat number
 * of their own send from it (docs/chat.md), so a reply to it has no owning account, yet opens the window.
 */
export const SANDBOX_WINDOW_ACCOUNT = 'sandbox';

export interface CustomerWindowKey {
  accountId: string;
  /** Our business number, E.164. */
  sender: string;
  /** The customer's number, E.164. */
  customer: string;
}

/**
 * The Redis key the gateway checks on the hot path. Only its existence matters: the dispatcher sets it
 * to expire when the window closes, so an absent key is a closed window.
 */
export function customerWindowCacheKey(prefix: string, w: CustomerWindowKey): string {
  return `${prefix}:csw:${w.accountId}:${w.sender}:${w.customer}`;
}

/** Milliseconds the window opened by `lastInboundAt` still has at `now`; 0 once it closed. */
export function customerWindowRemainingMs(lastInboundAt: Date, now: number): number {
  return Math.max(0, lastInboundAt.getTime() + CUSTOMER_SERVICE_WINDOW_MS - now);
}

/** The Redis commands the window cache needs; an ioredis client fits. */
export interface WindowCacheRedis {
  set(key: string, value: string, mode: 'PX', milliseconds: number): Promise<unknown>;
  exists(key: string): Promise<number>;
}

export function createCustomerWindowCache(deps: { redis: WindowCacheRedis; prefix: string }) {
  return {
    /** Sets the key to expire with the window; a window already closed writes nothing. */
    async remember(w: CustomerWindowKey, lastInboundAt: Date, now: number): Promise<void> {
      const remaining = customerWindowRemainingMs(lastInboundAt, now);
      if (remaining > 0) await deps.redis.set(customerWindowCacheKey(deps.prefix, w), lastInboundAt.toISOString(), 'PX', remaining);
    },
    async isOpen(w: CustomerWindowKey): Promise<boolean> {
      return (await deps.redis.exists(customerWindowCacheKey(deps.prefix, w))) > 0;
    },
  };
}
export type CustomerWindowCache = ReturnType<typeof createCustomerWindowCache>;

export function createCustomerWindowsRepository(db: Queryable) {
  return {
    /**
     * Opens or resets the window. Inbound webhooks may arrive out of order, so the later timestamp wins and
     * an old message never shortens a window. Returns the window's effective last inbound time.
     */
    async touch(w: CustomerWindowKey, at: Date): Promise<Date> {
      const { rows } = await db.query<{ last_inbound_at: Date }>(
        `INSERT INTO customer_windows (account_id, sender, customer, last_inbound_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (account_id, sender, customer)
         DO UPDATE SET last_inbound_at = GREATEST(customer_windows.last_inbound_at, EXCLUDED.last_inbound_at)
         RETURNING last_inbound_at`,
        [w.accountId, w.sender, w.customer, at],
      );
      return rows[0].last_inbound_at;
    },

    async lastInboundAt(w: CustomerWindowKey): Promise<Date | null> {
      const { rows } = await db.query<{ last_inbound_at: Date }>(
        'SELECT last_inbound_at FROM customer_windows WHERE account_id = $1 AND sender = $2 AND customer = $3',
        [w.accountId, w.sender, w.customer],
      );
      return rows[0]?.last_inbound_at ?? null;
    },
  };
}
export type CustomerWindowsRepository = ReturnType<typeof createCustomerWindowsRepository>;
