import type { Db } from '../db';
import { applyMessageChange, lockMessage, type StoredEvent } from '../message-change';
import { hasEnded } from '../message-progress';
import type { AttemptRow } from '../message-resource';

export interface FallbackTimeoutResult {
  /** The message has left the attempt, now or in an earlier run: the caller sends on the next channel. */
  abandoned: boolean;
  events: StoredEvent[];
}

/**
 * The writes of the message timers (docs/routing.md#time-based-fallback, docs/routing.md#ttl). Each runs
 * under the message's row lock, so it cannot interleave with a receipt or a send of the same message.
 */
export function createMessageTimersRepository(db: Db) {
  return {
    /**
     * Leaves an attempt that was accepted but not delivered in time: it is marked abandoned (its later
     * receipts update it, never the message) and `message.fallback` is recorded. Only the message's
     * latest attempt, still `sent`, is left; anything else means the timer is stale and nothing changes.
     */
    async abandonForFallback(input: {
      messageId: string;
      attemptId: string;
      nextChannel: string;
      timeoutSeconds: number;
      at: Date;
    }): Promise<FallbackTimeoutResult> {
      return db.transaction(async (tx) => {
        const row = await lockMessage(tx, input.messageId);
        if (!row) return { abandoned: false, events: [] };
        const { rows: attempts } = await tx.query<AttemptRow>('SELECT * FROM message_attempts WHERE message_id = $1 ORDER BY attempt_no', [row.id]);
        const attempt = attempts.find((a) => a.id === input.attemptId);
        if (!attempt) return { abandoned: false, events: [] };
        if (attempt.abandoned_at) return { abandoned: !hasEnded(row.status), events: [] };
        const latest = attempts[attempts.length - 1];
        if (row.status !== 'sent' || attempt.status !== 'sent' || latest.id !== attempt.id) return { abandoned: false, events: [] };
        // By the whole key: the message id is the partition key (docs/storage-layout.md#time-partitioned-tables).
        await tx.query(
          `UPDATE message_attempts SET abandoned_at = $2, error_code = 'fallback_timeout', error_message = $3, updated_at = $2 WHERE id = $1 AND message_id = $4`,
          [attempt.id, input.at, `not delivered within fallback_timeout_seconds (${input.timeoutSeconds})`, row.id],
        );
        const change = await applyMessageChange(tx, row, {
          at: input.at,
          eventType: 'message.fallback',
          eventExtra: { fallback: { from: attempt.channel, to: input.nextChannel, reason: 'fallback_timeout' } },
        });
        return { abandoned: true, events: change.events };
      });
    },

    /**
     * Ends a message whose ttl_seconds ran out, whatever state short of an end it is in: `undelivered`
     * with error `expired`. Its attempts are abandoned, so a late receipt fills in the attempt only.
     */
    async expireMessage(input: { messageId: string; ttlSeconds: number; at: Date }): Promise<{ expired: boolean; events: StoredEvent[] }> {
      return db.transaction(async (tx) => {
        const row = await lockMessage(tx, input.messageId);
        if (!row || hasEnded(row.status)) return { expired: false, events: [] };
        await tx.query(
          `UPDATE message_attempts SET abandoned_at = $2 WHERE message_id = $1 AND abandoned_at IS NULL AND status NOT IN ('failed', 'undelivered')`,
          [row.id, input.at],
        );
        const change = await applyMessageChange(tx, row, {
          status: 'undelivered',
          at: input.at,
          carrierStatusCode: 'expired',
          error: { code: 'expired', message: `not delivered within ttl_seconds (${input.ttlSeconds})` },
        });
        return { expired: change.changed, events: change.events };
      });
    },
  };
}
export type MessageTimersRepository = ReturnType<typeof createMessageTimersRepository>;
