import { newId, type UpstreamReceipt, type AcceptedMessageFields } from '@switchboard/domain';
import type { Db } from '../db';
import { applyMessageChange, lockMessage, type StoredEvent } from '../message-change';
import { isHandedOff } from '../message-progress';
import type { AttemptRow, MessageRow } from '../message-resource';
import { applyReceiptBatch, type ReceiptResult } from './receipt-batch';

/** The accepted message under its stored id (the job's `message_id`). */
export interface AcceptedMessage extends AcceptedMessageFields {
  id: string;
}

export type StartAttemptResult =
  | { outcome: 'started'; attempt: AttemptRow; row: MessageRow; events: StoredEvent[] }
  /** An earlier attempt reached `sending` and its outcome was never recorded (a crash mid-send). */
  | { outcome: 'ambiguous'; attempt: AttemptRow; row: MessageRow; events: StoredEvent[] }
  /** Nothing left to send: the message was already handed to an upstream or ended. */
  | { outcome: 'finished'; row: MessageRow; events: StoredEvent[] };

export type { ReceiptResult };

export function createMessageWritesRepository(db: Db) {
  return {
    /**
     * Idempotent: the job may run again after a crash; the first insert wins and records `queued`. One
     * statement (the message, its first history row, or the row already there) instead of a transaction of
     * four round trips (docs/performance.md#dispatch). `inserted` tells a first run, which has no attempts yet.
     */
    async persistAccepted(m: AcceptedMessage): Promise<MessageRow & { inserted: boolean }> {
      const { rows } = await db.query<MessageRow & { inserted: boolean }>(
        `WITH inserted AS (
           INSERT INTO messages (id, account_id, mode, status, channel, plan, senders, recipient, content, template, callback_url,
             ttl_seconds, fallback_timeout_seconds, metadata, cost_units, sequence, created_at, updated_at)
           VALUES ($1, $2, $3, 'queued', $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 1, $15, $15)
           ON CONFLICT (id) DO NOTHING RETURNING *
         ), history AS (
           INSERT INTO message_transitions (message_id, sequence, status, at) SELECT id, 1, 'queued', created_at FROM inserted
         )
         SELECT inserted.*, true AS inserted FROM inserted
         UNION ALL
         SELECT messages.*, false AS inserted FROM messages WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM inserted)`,
        [
          m.id, m.account_id, m.mode, m.channel, m.plan, JSON.stringify(m.senders), m.recipient,
          m.content === undefined ? null : JSON.stringify(m.content),
          m.template === undefined ? null : JSON.stringify(m.template),
          m.callback_url ?? null, m.ttl_seconds ?? null, m.fallback_timeout_seconds ?? null,
          m.metadata === undefined ? null : JSON.stringify(m.metadata), m.cost_units, m.created_at,
        ],
      );
      if (rows[0]) return rows[0];
      // A concurrent first insert committed after this statement's snapshot: its row is visible now.
      const { rows: existing } = await db.query<MessageRow>('SELECT * FROM messages WHERE id = $1', [m.id]);
      return { ...existing[0], inserted: false };
    },

    /**
     * The send guard: records `sending` for this attempt before any upstream call, under the message's
     * row lock, so that a second run of the job sees the first one's attempt instead of sending again.
     */
    async startAttempt(input: { messageId: string; channel: string; sender: string; attemptRef?: number; at: Date }): Promise<StartAttemptResult> {
      return db.transaction(async (tx) => {
        const row = await lockMessage(tx, input.messageId);
        if (!row) throw new Error(`message ${input.messageId} is not persisted`);
        const { rows: all } = await tx.query<AttemptRow>('SELECT * FROM message_attempts WHERE message_id = $1 ORDER BY attempt_no', [row.id]);
        if (isHandedOff(row.status, all)) return { outcome: 'finished', row, events: [] };
        const open = all.filter((a) => a.status === 'sending');
        if (open.length > 0) return { outcome: 'ambiguous', attempt: open[open.length - 1], row, events: [] };
        const previous = all[all.length - 1];
        // One attempt row per channel tried (docs/messages.md#reading-messages): a retry on the same channel after a known
        // non-acceptance (throttled, transient) or an abandoned unknown outcome reuses the row.
        const reusable = previous && previous.channel === input.channel && (previous.status === 'pending' || previous.status === 'unknown');
        const { rows } = reusable
          ? await tx.query<AttemptRow>(
              `UPDATE message_attempts SET status = 'sending', attempt_ref = $2, sender = $3, updated_at = $4 WHERE id = $1 RETURNING *`,
              [previous.id, input.attemptRef ?? null, input.sender, input.at],
            )
          : await tx.query<AttemptRow>(
              `INSERT INTO message_attempts (id, message_id, attempt_no, channel, status, attempt_ref, sender, created_at, updated_at)
               VALUES ($1, $2, $3, $4, 'sending', $5, $6, $7, $7) RETURNING *`,
              [newId('att'), row.id, (previous?.attempt_no ?? 0) + 1, input.channel, input.attemptRef ?? null, input.sender, input.at],
            );
        const attempts = [...all.filter((a) => a.id !== rows[0].id), rows[0]];
        const change = await applyMessageChange(tx, row, { status: 'sending', at: input.at }, attempts);
        return { outcome: 'started', attempt: rows[0], row: change.row, events: change.events };
      });
    },

    /**
     * The upstream took the message: the attempt and the message become `sent`. `partIds` (SMS) are the
     * SMSC ids of every part, kept so that a per-part receipt reaching another process still matches.
     */
    async attemptAccepted(input: { messageId: string; attemptId: string; upstreamMessageId: string; partIds?: string[]; at: Date }) {
      return db.transaction(async (tx) => {
        const row = await lockMessage(tx, input.messageId);
        if (!row) throw new Error(`message ${input.messageId} is not persisted`);
        const { rows } = await tx.query<AttemptRow>(
          `UPDATE message_attempts SET upstream_message_id = COALESCE(upstream_message_id, $2),
             upstream_part_ids = COALESCE($4, upstream_part_ids),
             -- An earlier throttled or transient answer on this attempt is no longer its outcome.
             error_code = CASE WHEN status IN ('sending', 'unknown') THEN NULL ELSE error_code END,
             error_message = CASE WHEN status IN ('sending', 'unknown') THEN NULL ELSE error_message END,
             status = CASE WHEN status IN ('sending', 'unknown') THEN 'sent' ELSE status END, updated_at = $3
           WHERE id = $1 RETURNING *`,
          [input.attemptId, input.upstreamMessageId, input.at, input.partIds && input.partIds.length > 1 ? input.partIds : null],
        );
        // After a fallback timeout the message is already `sent` on the channel it left; the new channel's
        // acceptance is still recorded, as another `message.sent` (docs/routing.md#time-based-fallback).
        const resent = row.status === 'sent' && row.channel_used !== rows[0].channel;
        return applyMessageChange(tx, row, {
          status: 'sent',
          at: input.at,
          carrierStatusCode: 'accepted',
          channelUsed: rows[0].channel,
          error: null,
          ...(resent ? { eventType: 'message.sent' } : {}),
        });
      });
    },

    /**
     * The attempt failed. With `finalStatus` the message ends with that error; with `nextChannel` the
     * message moves on (`message.fallback`); with neither, the attempt is closed and the job retries it.
     */
    async attemptFailed(input: {
      messageId: string;
      attemptId: string;
      errorCode: string;
      errorMessage: string;
      at: Date;
      finalStatus?: 'failed' | 'undelivered';
      nextChannel?: string;
      /** The upstream's own code (`131026`, `0x0B`); shown as the message's carrier_status_code. @defaultValue errorCode */
      carrierStatusCode?: string;
    }) {
      return db.transaction(async (tx) => {
        const row = await lockMessage(tx, input.messageId);
        if (!row) throw new Error(`message ${input.messageId} is not persisted`);
        const { rows } = await tx.query<AttemptRow>(
          `UPDATE message_attempts SET status = 'failed', error_code = $2, error_message = $3, updated_at = $4 WHERE id = $1 RETURNING *`,
          [input.attemptId, input.errorCode, input.errorMessage, input.at],
        );
        const attempt = rows[0];
        if (input.finalStatus) {
          return applyMessageChange(tx, row, {
            status: input.finalStatus,
            at: input.at,
            carrierStatusCode: input.carrierStatusCode ?? input.errorCode,
            channelUsed: attempt.channel,
            error: { code: input.errorCode, message: input.errorMessage },
          });
        }
        if (input.nextChannel) {
          return applyMessageChange(tx, row, {
            at: input.at,
            eventType: 'message.fallback',
            eventExtra: { fallback: { from: attempt.channel, to: input.nextChannel, reason: input.errorCode } },
          });
        }
        return { row, changed: false, events: [] as StoredEvent[] };
      });
    },

    /** The upstream answered and did not take the message (throttled, transient): safe to send again later. */
    async attemptRetryable(input: { attemptId: string; errorCode: string; errorMessage: string; at: Date }): Promise<void> {
      await db.query(
        `UPDATE message_attempts SET status = 'pending', error_code = $2, error_message = $3, updated_at = $4 WHERE id = $1 AND status = 'sending'`,
        [input.attemptId, input.errorCode, input.errorMessage, input.at],
      );
    },

    /** Gives up waiting on an attempt whose outcome stayed unknown, so that a new attempt may start. */
    async abandonAttempt(attemptId: string, at: Date): Promise<void> {
      await db.query(`UPDATE message_attempts SET status = 'unknown', updated_at = $2 WHERE id = $1 AND status = 'sending'`, [attemptId, at]);
    },

    /** Ends a message that never reached an upstream (ttl expiry, no channel left, invalid content). */
    async failMessage(input: { messageId: string; status: 'failed' | 'undelivered'; errorCode: string; errorMessage: string; at: Date }) {
      return db.transaction(async (tx) => {
        const row = await lockMessage(tx, input.messageId);
        if (!row) throw new Error(`message ${input.messageId} is not persisted`);
        return applyMessageChange(tx, row, {
          status: input.status,
          at: input.at,
          carrierStatusCode: input.errorCode,
          error: { code: input.errorCode, message: input.errorMessage },
        });
      });
    },

    /**
     * Applies an upstream receipt, in any order and any number of times. The attempt is found by the
     * upstream id; failing that by our own reference echoed by the upstream (chat biz_opaque_callback_data,
     * RBM messageId, SMPP user_message_reference + recipient), which adopts the upstream id.
     */
    async applyReceipt(receipt: UpstreamReceipt): Promise<ReceiptResult> {
      const [result] = await db.transaction((tx) => applyReceiptBatch(tx, [receipt]));
      return result;
    },

    /**
     * Many receipts in one transaction, each with its own result in the given order (docs/performance.md#receipt-batches).
     * All or nothing: when it throws, none was applied, and the caller may apply them one by one.
     */
    async applyReceipts(receipts: readonly UpstreamReceipt[]): Promise<ReceiptResult[]> {
      if (receipts.length === 0) return [];
      return db.transaction((tx) => applyReceiptBatch(tx, receipts));
    },

    async attempts(messageId: string): Promise<AttemptRow[]> {
      const { rows } = await db.query<AttemptRow>('SELECT * FROM message_attempts WHERE message_id = $1 ORDER BY attempt_no', [messageId]);
      return rows;
    },

    async findRow(messageId: string): Promise<MessageRow | null> {
      const { rows } = await db.query<MessageRow>('SELECT * FROM messages WHERE id = $1', [messageId]);
      return rows[0] ?? null;
    },
  };
}
export type MessageWritesRepository = ReturnType<typeof createMessageWritesRepository>;
