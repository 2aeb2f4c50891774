import type { UpstreamReceipt } from '@switchboard/domain';
import type { Db } from '../db';
import { idRange } from '../id-range';
import type { AttemptRow, MessageRow } from '../message-resource';
import { failMessageBatch, type FailMessageInput } from './fail-message-batch';
import { applyReceiptBatch, type ReceiptResult } from './receipt-batch';
import {
  attemptAcceptedBatch,
  attemptFailedBatch,
  persistAcceptedBatch,
  startAttemptBatch,
  type AcceptedMessage,
  type AttemptAcceptedInput,
  type AttemptFailedInput,
  type PersistedMessage,
  type StartAttemptInput,
  type StartAttemptResult,
} from './send-batch';

/** A stored message with its attempts, in order: what a send pass decides from. */
export interface StoredProgress {
  row: MessageRow;
  attempts: AttemptRow[];
}

export type {
  AcceptedMessage,
  AttemptAcceptedInput,
  AttemptFailedInput,
  FailMessageInput,
  PersistedMessage,
  ReceiptResult,
  StartAttemptInput,
  StartAttemptResult,
};

export function createMessageWritesRepository(db: Db) {
  return {
    /**
     * Idempotent: the job may run again after a crash; the first insert wins and records `queued`. One
     * statement (the message, its first history row, or the row already there) instead of a transaction of
     * four round trips (docs/performance/dispatch.md#dispatch). `inserted` tells a first run, which has no attempts yet.
     */
    async persistAccepted(m: AcceptedMessage): Promise<PersistedMessage> {
      const [row] = await persistAcceptedBatch(db, [m]);
      return row;
    },

    /** `persistAccepted` for many messages in one statement (docs/performance/dispatch.md#send-batches), results in their order. */
    persistAcceptedMany: (messages: readonly AcceptedMessage[]): Promise<PersistedMessage[]> => persistAcceptedBatch(db, messages),

    /**
     * The send guard: records `sending` for this attempt before any upstream call, under the message's
     * row lock, so that a second run of the job sees the first one's attempt instead of sending again.
     */
    async startAttempt(input: StartAttemptInput): Promise<StartAttemptResult> {
      const [result] = await db.transaction((tx) => startAttemptBatch(tx, [input]));
      return result;
    },

    /**
     * The send guard of many messages in one transaction, committed when this resolves, before any of their
     * upstream calls (docs/performance/dispatch.md#send-batches). All or nothing: when it throws, none was started.
     */
    startAttempts: (inputs: readonly StartAttemptInput[]): Promise<StartAttemptResult[]> => db.transaction((tx) => startAttemptBatch(tx, inputs)),

    /**
     * The upstream took the message: the attempt and the message become `sent`. `partIds` (SMS) are the
     * SMSC ids of every part, kept so that a per-part receipt reaching another process still matches.
     */
    async attemptAccepted(input: AttemptAcceptedInput) {
      const [result] = await db.transaction((tx) => attemptAcceptedBatch(tx, [input]));
      return result;
    },

    /** `attemptAccepted` of many messages in one transaction; all or nothing (docs/performance/dispatch.md#send-batches). */
    attemptsAccepted: (inputs: readonly AttemptAcceptedInput[]) => db.transaction((tx) => attemptAcceptedBatch(tx, inputs)),

    /**
     * The attempt failed. With `finalStatus` the message ends with that error; with `nextChannel` the
     * message moves on (`message.fallback`); with neither, the attempt is closed and the job retries it.
     */
    async attemptFailed(input: AttemptFailedInput) {
      const [result] = await db.transaction((tx) => attemptFailedBatch(tx, [input]));
      return result;
    },

    /** `attemptFailed` of many messages in one transaction; all or nothing (docs/performance/dispatch.md#send-batches). */
    attemptsFailed: (inputs: readonly AttemptFailedInput[]) => db.transaction((tx) => attemptFailedBatch(tx, inputs)),

    /** The upstream answered and did not take the message (throttled, transient): safe to send again later. */
    // Attempts by their whole key: the message id is their partition key (docs/storage-layout.md#time-partitioned-tables).
    async attemptRetryable(input: { messageId: string; attemptId: string; errorCode: string; errorMessage: string; at: Date }): Promise<void> {
      await db.query(
        `UPDATE message_attempts SET status = 'pending', error_code = $2, error_message = $3, updated_at = $4
         WHERE id = $1 AND message_id = $5 AND status = 'sending'`,
        [input.attemptId, input.errorCode, input.errorMessage, input.at, input.messageId],
      );
    },

    /** Gives up waiting on an attempt whose outcome stayed unknown, so that a new attempt may start. */
    async abandonAttempt(attempt: Pick<AttemptRow, 'id' | 'message_id'>, at: Date): Promise<void> {
      await db.query(`UPDATE message_attempts SET status = 'unknown', updated_at = $2 WHERE id = $1 AND message_id = $3 AND status = 'sending'`, [
        attempt.id,
        at,
        attempt.message_id,
      ]);
    },

    /** Ends a message that never reached an upstream (ttl expiry, no channel left, invalid content). */
    async failMessage(input: FailMessageInput) {
      const [result] = await db.transaction((tx) => failMessageBatch(tx, [input]));
      return result;
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
     * Many receipts in one transaction, each with its own result in the given order (docs/performance/dispatch.md#receipt-batches).
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

    /** `findRow` and `attempts` of many messages in two statements (a chunk's slice, docs/messages.md#chunk-lifecycle); stored ones only. */
    async rowsWithAttempts(messageIds: readonly string[]): Promise<Map<string, StoredProgress>> {
      const range = idRange(messageIds);
      const [{ rows }, { rows: attempts }] = await Promise.all([
        db.query<MessageRow>('SELECT * FROM messages WHERE id = ANY($1::text[]) AND id >= $2 AND id <= $3', [messageIds, ...range]),
        db.query<AttemptRow>(
          'SELECT * FROM message_attempts WHERE message_id = ANY($1::text[]) AND message_id >= $2 AND message_id <= $3 ORDER BY message_id, attempt_no',
          [messageIds, ...range],
        ),
      ]);
      const found = new Map<string, StoredProgress>(rows.map((row) => [row.id, { row, attempts: [] }]));
      for (const attempt of attempts) found.get(attempt.message_id)?.attempts.push(attempt);
      return found;
    },
  };
}
export type MessageWritesRepository = ReturnType<typeof createMessageWritesRepository>;
