import type { Db, Queryable } from '../db';
import { applyMessageChange, lockMessage, type StoredEvent } from '../message-change';
import type { MessageRow } from '../message-resource';
import type { AcceptedMessage } from './message-writes.repository';

export type CancelResult =
  | { outcome: 'canceled'; row: MessageRow; events: StoredEvent[] }
  /** The dispatcher stored it first (it is queued, being sent, or beyond), or it already ended. */
  | { outcome: 'not_cancelable'; row: MessageRow };

/**
 * Stores a message that is still waiting in BullMQ's delayed set as `scheduled`, unless a row already
 * exists. Only the cancel and the early expiry do this, each ending the row in the same transaction,
 * so the dispatcher's own insert (which records `queued`) then finds a row that has ended.
 */
async function insertScheduled(tx: Queryable, m: AcceptedMessage): Promise<void> {
  const inserted = await tx.query(
    `INSERT INTO messages (id, account_id, mode, status, channel, plan, senders, recipient, content, template, callback_url,
       ttl_seconds, fallback_timeout_seconds, metadata, cost_units, sequence, created_at, updated_at, traffic_class)
     VALUES ($1, $2, $3, 'scheduled', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 1, $15, $15, $16)
     ON CONFLICT (id) DO NOTHING RETURNING id`,
    [
      m.id,
      m.account_id,
      m.mode,
      m.channel,
      m.plan,
      JSON.stringify(m.senders),
      m.recipient,
      m.content === undefined ? null : JSON.stringify(m.content),
      m.template === undefined ? null : JSON.stringify(m.template),
      m.callback_url ?? null,
      m.ttl_seconds ?? null,
      m.fallback_timeout_seconds ?? null,
      m.metadata === undefined ? null : JSON.stringify(m.metadata),
      m.cost_units,
      m.created_at,
      m.traffic_class ?? 'transactional',
    ],
  );
  if (inserted.rowCount === 1) {
    await tx.query(`INSERT INTO message_transitions (message_id, sequence, status, at) VALUES ($1, 1, 'scheduled', $2)`, [m.id, m.created_at]);
  }
}

/**
 * Writes on messages that are still scheduled (docs/messages.md#scheduled-sends). The message row is
 * the arbiter between the gateway's cancel, the early expiry and the dispatcher: whoever inserts the
 * row first decides, and every later change runs under the row lock the send guard also takes.
 */
export function createScheduledMessagesRepository(db: Db) {
  return {
    /** Cancels a message the dispatcher has not stored yet; anything else is not cancelable. */
    async cancelScheduled(input: { message: AcceptedMessage; at: Date }): Promise<CancelResult> {
      return db.transaction(async (tx) => {
        await insertScheduled(tx, input.message);
        const row = (await lockMessage(tx, input.message.id)) as MessageRow;
        if (row.status !== 'scheduled') return { outcome: 'not_cancelable', row };
        const change = await applyMessageChange(tx, row, { status: 'canceled', at: input.at });
        return { outcome: 'canceled', row: change.row, events: change.events };
      });
    },

    /**
     * The TTL of a message still waiting in the delayed set ran out (docs/routing.md#ttl): it is stored and
     * ended `undelivered` / `expired` in one transaction. `stored: false` when the dispatcher stored it
     * first; the ordinary expiry then applies.
     */
    async expireScheduled(input: {
      message: AcceptedMessage;
      ttlSeconds: number;
      at: Date;
    }): Promise<{ stored: boolean; expired: boolean; events: StoredEvent[] }> {
      return db.transaction(async (tx) => {
        await insertScheduled(tx, input.message);
        const row = (await lockMessage(tx, input.message.id)) as MessageRow;
        if (row.status !== 'scheduled') return { stored: false, expired: false, events: [] };
        const change = await applyMessageChange(tx, row, {
          status: 'undelivered',
          at: input.at,
          carrierStatusCode: 'expired',
          error: { code: 'expired', message: `not delivered within ttl_seconds (${input.ttlSeconds})` },
        });
        return { stored: true, expired: change.changed, events: change.events };
      });
    },
  };
}
export type ScheduledMessagesRepository = ReturnType<typeof createScheduledMessagesRepository>;
