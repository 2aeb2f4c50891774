import type { CustomerWindowKey } from '@switchboard/domain';
import type { Queryable } from '../db';

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

    /** The windows with an inbound message after `since`, in key order after `after`, for rebuilding the Redis copy. */
    async listOpen(since: Date, after: CustomerWindowKey | null, limit: number): Promise<Array<CustomerWindowKey & { lastInboundAt: Date }>> {
      const { rows } = await db.query<{ account_id: string; sender: string; customer: string; last_inbound_at: Date }>(
        `SELECT account_id, sender, customer, last_inbound_at FROM customer_windows
         WHERE last_inbound_at > $1 AND ($2::text IS NULL OR (account_id, sender, customer) > ($2::text, $3::text, $4::text))
         ORDER BY account_id, sender, customer LIMIT $5`,
        [since, after?.accountId ?? null, after?.sender ?? null, after?.customer ?? null, limit],
      );
      return rows.map((r) => ({ accountId: r.account_id, sender: r.sender, customer: r.customer, lastInboundAt: r.last_inbound_at }));
    },
  };
}
export type CustomerWindowsRepository = ReturnType<typeof createCustomerWindowsRepository>;
