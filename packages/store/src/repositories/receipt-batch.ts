import type { UpstreamReceipt } from '@switchboard/domain';
import type { Queryable } from '../db';
import { idRange, monthIdBound } from '../id-range';
import { planMessageChange, type StoredEvent } from '../message-change';
import { writeMessageChanges, type PlannedStep } from '../message-change-batch';
import { combinedPartStatus, furtherPartStatus } from '../message-progress';
import type { AttemptRow, MessageRow } from '../message-resource';

export interface ReceiptResult {
  matched: boolean;
  /**
   * Unmatched, and never will be: its reference names no message of ours. A message's row is written before
   * any of its sends, so a later run could not find it either (docs/performance/dispatch-cost.md#receipts-that-are-not-ours).
   */
  notOurs?: boolean;
  messageId?: string;
  attempt?: AttemptRow;
  row?: MessageRow;
  events: StoredEvent[];
}

/**
 * Months before the current one searched first for a receipt's attempt by upstream id: upstreams report within
 * days, and a lookup bounded by message id prunes to those months instead of probing every month's index
 * (docs/storage-layout.md#time-partitioned-tables). The next month is in the window too, for a sender's clock ahead
 * of ours. A receipt not found there is looked for in every month before it counts as unmatched.
 */
export const RECEIPT_WINDOW_MONTHS = 1;

const ATTEMPT_RANK: Record<string, number> = { pending: 0, sending: 0, unknown: 0, sent: 1, failed: 2, undelivered: 2, delivered: 3, read: 4 };

/**
 * Applies many receipts in the caller's transaction (docs/performance/dispatch.md#receipt-batches): one statement finds
 * the attempts by upstream id, one locks every message concerned (in id order, so two batches never deadlock),
 * one reads their attempts, and one writes every changed attempt at the end. Between those, the receipts are
 * applied in their given order on the rows held in memory, so that two receipts of one message see each other
 * exactly as two single-receipt transactions would. The message changes (rows, history rows, events) are planned
 * on those rows too and written by one statement at the end, as the send batches write theirs.
 */
export async function applyReceiptBatch(tx: Queryable, receipts: readonly UpstreamReceipt[]): Promise<ReceiptResult[]> {
  const { found, notOurs } = await findAttempts(tx, receipts);
  const unmatched = (index: number): ReceiptResult => (notOurs.has(index) ? { matched: false, notOurs: true, events: [] } : { matched: false, events: [] });
  const messageIds = [...new Set([...found.values()].map((a) => a.message_id))].sort();
  if (messageIds.length === 0) return receipts.map((_, index) => unmatched(index));

  const range = idRange(messageIds);
  const { rows: locked } = await tx.query<MessageRow>('SELECT * FROM messages WHERE id = ANY($1::text[]) AND id >= $2 AND id <= $3 ORDER BY id FOR UPDATE', [
    messageIds,
    ...range,
  ]);
  const messages = new Map(locked.map((row) => [row.id, row]));
  // Read again under the message locks: a concurrent receipt may have moved an attempt since the lookup.
  const { rows: allAttempts } = await tx.query<AttemptRow>(
    'SELECT * FROM message_attempts WHERE message_id = ANY($1::text[]) AND message_id >= $2 AND message_id <= $3 ORDER BY message_id, attempt_no',
    [messageIds, ...range],
  );
  const attemptsOf = new Map<string, AttemptRow[]>();
  for (const a of allAttempts) attemptsOf.set(a.message_id, [...(attemptsOf.get(a.message_id) ?? []), a]);
  const changedAttempts = new Map<string, AttemptRow>();
  const steps: PlannedStep[] = [];
  const resultOfStep: ReceiptResult[] = [];

  const results: ReceiptResult[] = [];
  for (const [index, receipt] of receipts.entries()) {
    const lookedUp = found.get(index);
    const row = lookedUp ? messages.get(lookedUp.message_id) : undefined;
    const siblings = lookedUp ? attemptsOf.get(lookedUp.message_id) : undefined;
    const attempt = siblings?.find((a) => a.id === lookedUp?.id);
    if (!row || !siblings || !attempt) {
      results.push(unmatched(index));
      continue;
    }
    // A part receipt that overtook the write of the part ids waits for it (the job retries), so that one
    // delivered part cannot pass for the whole message.
    const partIds = attempt.upstream_part_ids ?? [];
    if ((receipt.parts ?? 1) > 1 && partIds.length < 2) {
      results.push({ matched: false, events: [] });
      continue;
    }
    const at = new Date(receipt.occurredAt);
    let status: string = receipt.status;
    let partStatuses = attempt.part_statuses ?? {};
    if (partIds.length > 1) {
      const partId = receipt.partId ?? receipt.upstreamMessageId;
      partStatuses = { ...partStatuses, [partId]: furtherPartStatus(partStatuses[partId], receipt.status) };
      status = combinedPartStatus(partIds, partStatuses);
    }
    const isFailure = status === 'failed' || status === 'undelivered';
    const updatedAttempt: AttemptRow = {
      ...attempt,
      upstream_message_id: attempt.upstream_message_id ?? receipt.upstreamMessageId,
      status: (ATTEMPT_RANK[status] ?? 0) > (ATTEMPT_RANK[attempt.status] ?? 0) ? status : attempt.status,
      error_code: (isFailure ? receipt.errorCode : undefined) ?? attempt.error_code,
      updated_at: at,
      part_statuses: partStatuses,
    };
    siblings.splice(siblings.indexOf(attempt), 1, updatedAttempt);
    changedAttempts.set(updatedAttempt.id, updatedAttempt);
    // The message left this attempt (fallback timeout, ttl expiry): the receipt is kept on the attempt only
    // (docs/routing.md#time-based-fallback).
    if (attempt.abandoned_at) {
      results.push({ matched: true, messageId: row.id, attempt: updatedAttempt, row, events: [] });
      continue;
    }
    const plan = planMessageChange(row, {
      status: status as UpstreamReceipt['status'],
      at,
      carrierStatusCode: receipt.carrierStatusCode,
      channelUsed: attempt.channel,
      error: isFailure ? { code: receipt.errorCode ?? receipt.carrierStatusCode, message: receipt.errorMessage ?? receipt.status } : null,
    });
    const result: ReceiptResult = { matched: true, messageId: row.id, attempt: updatedAttempt, row: plan?.next ?? row, events: [] };
    if (plan) {
      messages.set(row.id, plan.next);
      // The event shows the attempts as they stand after this receipt, not as the batch leaves them.
      steps.push({ plan, attempts: [...siblings] });
      resultOfStep.push(result);
    }
    results.push(result);
  }

  if (changedAttempts.size > 0) await writeAttempts(tx, [...changedAttempts.values()]);
  const events = await writeMessageChanges(tx, steps);
  for (const [index, result] of resultOfStep.entries()) result.events = events[index];
  return results;
}

/**
 * The attempt each receipt concerns, by receipt index (receipts matching none are absent), and the receipts
 * whose own reference names no message at all.
 */
async function findAttempts(tx: Queryable, receipts: readonly UpstreamReceipt[]): Promise<{ found: Map<number, AttemptRow>; notOurs: Set<number> }> {
  const found = new Map<number, AttemptRow>();
  const notOurs = new Set<number>();
  const now = new Date();
  const window: [string, string] = [monthIdBound('msg', now, -RECEIPT_WINDOW_MONTHS), monthIdBound('msg', now, 2)];
  await findByUpstreamId(tx, receipts, [...receipts.keys()], window, found);
  // A receipt that overtook the write of its acceptance (chat and RBM answer fast) is found by our own
  // reference, which the upstream echoes back: one statement for all of them. SMS keeps its own order of
  // lookups below (a part id first).
  const byReference = [...receipts.entries()].filter(([index, receipt]) => !found.has(index) && receipt.clientRef && receipt.channel !== 'sms');
  if (byReference.length > 0) {
    const { rows: referenced } = await tx.query<AttemptRow & { receipt_index: number }>(
      `SELECT DISTINCT ON (r.receipt_index) r.receipt_index::int AS receipt_index, a.*
       FROM unnest($1::int[], $2::text[], $3::text[], $4::text[]) AS r(receipt_index, message_id, channel, upstream_id)
       JOIN message_attempts a ON a.message_id = r.message_id AND a.channel = r.channel
         AND (a.upstream_message_id IS NULL OR a.upstream_message_id = r.upstream_id)
       WHERE a.message_id >= $5 AND a.message_id <= $6
       ORDER BY r.receipt_index, a.attempt_no DESC`,
      [
        byReference.map(([index]) => index),
        byReference.map(([, receipt]) => receipt.clientRef),
        byReference.map(([, receipt]) => receipt.channel),
        byReference.map(([, receipt]) => receipt.upstreamMessageId),
        ...idRange(byReference.map(([, receipt]) => receipt.clientRef as string)),
      ],
    );
    for (const { receipt_index: index, ...attempt } of referenced) found.set(index, attempt);
    for (const index of await referencesOfNoMessage(
      tx,
      receipts,
      byReference.map(([index]) => index).filter((index) => !found.has(index)),
    ))
      notOurs.add(index);
  }
  // Outside the window: an old message's late receipt, or one overtaking its acceptance's write (found by the
  // lookups after this one, or by a later run). One statement over every month, for the batch's few left.
  const left = [...receipts.keys()].filter((index) => !found.has(index) && !notOurs.has(index));
  if (left.length > 0) await findByUpstreamId(tx, receipts, left, undefined, found);
  // The rarer lookups (a part id, an SMPP reference with the recipient) stay one statement per receipt needing them.
  for (const [index, receipt] of receipts.entries()) {
    if (found.has(index) || notOurs.has(index)) continue;
    const attempt = await findAttemptByReference(tx, receipt);
    if (attempt) found.set(index, attempt);
  }
  return { found, notOurs };
}

/** Adds to `found` the attempts of the receipts at `indexes` by upstream id, among the messages in `window` when given. */
async function findByUpstreamId(
  tx: Queryable,
  receipts: readonly UpstreamReceipt[],
  indexes: readonly number[],
  window: [string, string] | undefined,
  found: Map<number, AttemptRow>,
): Promise<void> {
  const { rows } = await tx.query<AttemptRow & { receipt_index: number }>(
    `SELECT DISTINCT ON (r.receipt_index) r.receipt_index::int AS receipt_index, a.*
     FROM unnest($1::int[], $2::text[], $3::text[]) AS r(receipt_index, channel, upstream_id)
     JOIN message_attempts a ON a.channel = r.channel AND a.upstream_message_id = r.upstream_id
     ${window ? 'WHERE a.message_id >= $4 AND a.message_id < $5' : ''}
     ORDER BY r.receipt_index, a.attempt_no`,
    [indexes, indexes.map((index) => receipts[index].channel), indexes.map((index) => receipts[index].upstreamMessageId), ...(window ?? [])],
  );
  for (const { receipt_index: index, ...attempt } of rows) found.set(index, attempt);
}

/**
 * Of the receipts at `indexes` (chat and RBM ones carrying our reference), those whose reference names no message:
 * someone else's send through the same upstream account, or a bare send to the simulator. One statement for all.
 */
async function referencesOfNoMessage(tx: Queryable, receipts: readonly UpstreamReceipt[], indexes: readonly number[]): Promise<number[]> {
  if (indexes.length === 0) return [];
  const refs = indexes.map((index) => receipts[index].clientRef as string);
  const { rows } = await tx.query<{ id: string }>('SELECT id FROM messages WHERE id = ANY($1::text[]) AND id >= $2 AND id <= $3', [refs, ...idRange(refs)]);
  const known = new Set(rows.map((row) => row.id));
  return indexes.filter((index) => !known.has(receipts[index].clientRef as string));
}

/**
 * An attempt found other than by its upstream id: an SMS part id, or our own reference echoed by the upstream
 * (chat biz_opaque_callback_data, RBM messageId, SMPP user_message_reference + recipient), which adopts the upstream id.
 */
export async function findAttemptByReference(tx: Queryable, receipt: UpstreamReceipt): Promise<AttemptRow | undefined> {
  if (receipt.channel === 'sms') {
    const { rows } = await tx.query<AttemptRow>(
      `SELECT * FROM message_attempts WHERE channel = 'sms' AND upstream_part_ids @> ARRAY[$1]::text[] AND upstream_part_ids IS NOT NULL LIMIT 1`,
      [receipt.upstreamMessageId],
    );
    if (rows[0]) return rows[0];
  }
  if (receipt.clientRef) {
    // Or already under this receipt's upstream id: a concurrent batch may have adopted it between the lookup by
    // upstream id and this one.
    const { rows } = await tx.query<AttemptRow>(
      `SELECT * FROM message_attempts WHERE message_id = $1 AND channel = $2 AND (upstream_message_id IS NULL OR upstream_message_id = $3)
       ORDER BY attempt_no DESC LIMIT 1`,
      [receipt.clientRef, receipt.channel, receipt.upstreamMessageId],
    );
    if (rows[0]) return rows[0];
  }
  if (receipt.attemptRef !== undefined && receipt.recipient) {
    const { rows } = await tx.query<AttemptRow>(
      `SELECT a.* FROM message_attempts a JOIN messages m ON m.id = a.message_id
       WHERE a.channel = $1 AND a.attempt_ref = $2 AND a.upstream_message_id IS NULL AND m.recipient = $3
       ORDER BY a.created_at DESC LIMIT 1`,
      [receipt.channel, receipt.attemptRef, receipt.recipient],
    );
    if (rows[0]) return rows[0];
  }
  return undefined;
}

/** One multi-row statement for every attempt the batch moved, with the values computed under the locks. */
async function writeAttempts(tx: Queryable, attempts: readonly AttemptRow[]): Promise<void> {
  await tx.query(
    `UPDATE message_attempts a SET upstream_message_id = v.upstream_message_id, status = v.status, error_code = v.error_code,
       updated_at = v.updated_at, part_statuses = v.part_statuses
     FROM jsonb_to_recordset($1::jsonb) AS v(id text, message_id text, upstream_message_id text, status text, error_code text, updated_at timestamptz,
       part_statuses jsonb)
     -- By the whole key and the messages' id range: the attempts are partitioned by message id (docs/storage-layout.md#time-partitioned-tables).
     WHERE a.id = v.id AND a.message_id = v.message_id AND a.message_id >= $2 AND a.message_id <= $3`,
    [
      JSON.stringify(
        attempts.map((a) => ({
          id: a.id,
          message_id: a.message_id,
          upstream_message_id: a.upstream_message_id,
          status: a.status,
          error_code: a.error_code,
          updated_at: new Date(a.updated_at).toISOString(),
          part_statuses: a.part_statuses,
        })),
      ),
      ...idRange(attempts.map((a) => a.message_id)),
    ],
  );
}
