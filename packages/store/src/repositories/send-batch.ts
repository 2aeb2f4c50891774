import { createPooledIdGenerator, type AcceptedMessageFields } from '@switchboard/domain';
import type { Queryable } from '../db';
import { planMessageChange, type ChangeResult, type MessageChange, type StoredEvent } from '../message-change';
import { idRange } from '../id-range';
import { writeMessageChanges, type PlannedStep } from '../message-change-batch';
import { isHandedOff } from '../message-progress';
import type { AttemptRow, MessageRow } from '../message-resource';

// Pooled ids: the `ulid` package's generator asks the OS for a random byte per character, on every write.
const newId = createPooledIdGenerator();

/** The accepted message under its stored id (the job's `message_id`). */
export interface AcceptedMessage extends AcceptedMessageFields {
  id: string;
}

export type PersistedMessage = MessageRow & { inserted: boolean };

export interface StartAttemptInput {
  messageId: string;
  channel: string;
  sender: string;
  attemptRef?: number;
  at: Date;
}

export type StartAttemptResult =
  | { outcome: 'started'; attempt: AttemptRow; row: MessageRow; events: StoredEvent[] }
  /** An earlier attempt reached `sending` and its outcome was never recorded (a crash mid-send). */
  | { outcome: 'ambiguous'; attempt: AttemptRow; row: MessageRow; events: StoredEvent[] }
  /** Nothing left to send: the message was already handed to an upstream or ended. */
  | { outcome: 'finished'; row: MessageRow; events: StoredEvent[] };

export interface AttemptAcceptedInput {
  messageId: string;
  attemptId: string;
  upstreamMessageId: string;
  partIds?: string[];
  at: Date;
}

/**
 * Idempotent: a job may run again after a crash; the first insert wins and records `queued`. One statement for
 * every message (each message, its first history row, or the row already there; docs/performance/dispatch.md#send-batches).
 * `inserted` tells a first run, which has no attempts yet. Results follow `messages`; a message given twice is
 * inserted once, and its second entry reads as already there.
 */
export async function persistAcceptedBatch(db: Queryable, messages: readonly AcceptedMessage[]): Promise<PersistedMessage[]> {
  if (messages.length === 0) return [];
  const unique = [...new Map(messages.map((m) => [m.id, m])).values()];
  const { rows } = await db.query<PersistedMessage>(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS v(id text, account_id text, mode text, channel text, plan text[],
         senders jsonb, recipient text, content jsonb, template jsonb, callback_url text, ttl_seconds integer,
         fallback_timeout_seconds integer, metadata jsonb, cost_units integer, created_at timestamptz, traffic_class text)
     ), inserted AS (
       INSERT INTO messages (id, account_id, mode, status, channel, plan, senders, recipient, content, template, callback_url,
         ttl_seconds, fallback_timeout_seconds, metadata, cost_units, sequence, created_at, updated_at, traffic_class)
       SELECT id, account_id, mode, 'queued', channel, plan, senders, recipient, content, template, callback_url,
         ttl_seconds, fallback_timeout_seconds, metadata, cost_units, 1, created_at, created_at, traffic_class FROM input ORDER BY id
       -- In id order, so that two batches inserting the same ids wait on each other instead of deadlocking.
       ON CONFLICT (id) DO NOTHING RETURNING *
     ), history AS (
       INSERT INTO message_transitions (message_id, sequence, status, at) SELECT id, 1, 'queued', created_at FROM inserted
     )
     SELECT inserted.*, true AS inserted FROM inserted
     UNION ALL
     SELECT messages.*, false AS inserted FROM messages JOIN input USING (id)
     WHERE messages.id >= $2 AND messages.id <= $3 AND NOT EXISTS (SELECT 1 FROM inserted WHERE inserted.id = messages.id)`,
    [
      JSON.stringify(
        unique.map((m) => ({
          id: m.id,
          account_id: m.account_id,
          mode: m.mode,
          channel: m.channel,
          plan: m.plan,
          senders: m.senders,
          recipient: m.recipient,
          content: m.content ?? null,
          template: m.template ?? null,
          callback_url: m.callback_url ?? null,
          ttl_seconds: m.ttl_seconds ?? null,
          fallback_timeout_seconds: m.fallback_timeout_seconds ?? null,
          metadata: m.metadata ?? null,
          cost_units: m.cost_units,
          created_at: m.created_at,
          traffic_class: m.traffic_class ?? 'transactional',
        })),
      ),
      ...idRange(unique.map((m) => m.id)),
    ],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const missing = unique.filter((m) => !byId.has(m.id)).map((m) => m.id);
  if (missing.length > 0) {
    // A concurrent first insert committed after this statement's snapshot: its row is visible now.
    const { rows: existing } = await db.query<MessageRow>('SELECT * FROM messages WHERE id = ANY($1::text[]) AND id >= $2 AND id <= $3', [
      missing,
      ...idRange(missing),
    ]);
    for (const row of existing) byId.set(row.id, { ...row, inserted: false });
  }
  const seen = new Set<string>();
  return messages.map((m) => {
    const row = byId.get(m.id);
    if (!row) throw new Error(`message ${m.id} was neither inserted nor found`);
    const first = !seen.has(m.id);
    seen.add(m.id);
    return first ? row : { ...row, inserted: false };
  });
}

/** The messages locked in id order (two batches never deadlock) and all their attempts, read under those locks. */
export async function lockWithAttempts(tx: Queryable, messageIds: readonly string[]) {
  const ids = [...new Set(messageIds)].sort();
  // The id range prunes to the batch's months, for a generic plan too (docs/storage-layout.md#time-partitioned-tables).
  const range = idRange(ids);
  const { rows: locked } = await tx.query<MessageRow>('SELECT * FROM messages WHERE id = ANY($1::text[]) AND id >= $2 AND id <= $3 ORDER BY id FOR UPDATE', [
    ids,
    ...range,
  ]);
  const { rows: attempts } = await tx.query<AttemptRow>(
    'SELECT * FROM message_attempts WHERE message_id = ANY($1::text[]) AND message_id >= $2 AND message_id <= $3 ORDER BY message_id, attempt_no',
    [ids, ...range],
  );
  const rows = new Map(locked.map((row) => [row.id, row]));
  const attemptsOf = new Map<string, AttemptRow[]>(ids.map((id) => [id, []]));
  for (const a of attempts) attemptsOf.get(a.message_id)?.push(a);
  const rowOf = (id: string) => {
    const row = rows.get(id);
    if (!row) throw new Error(`message ${id} is not persisted`);
    return row;
  };
  return { rows, attemptsOf, rowOf };
}

/**
 * The send guard for many messages in the caller's transaction: records `sending` for each one's attempt before
 * any upstream call, under the messages' row locks, so that a second run of a job (in this batch, another batch
 * or another process) sees the first one's attempt instead of sending again. Statements per batch: the locks,
 * the attempts, one upsert of the `sending` attempts, one write of the message changes (docs/performance/dispatch.md#send-batches).
 */
export async function startAttemptBatch(tx: Queryable, inputs: readonly StartAttemptInput[]): Promise<StartAttemptResult[]> {
  const { rows, attemptsOf, rowOf } = await lockWithAttempts(
    tx,
    inputs.map((i) => i.messageId),
  );
  const decided: Array<{ outcome: StartAttemptResult['outcome']; attempt?: AttemptRow; row: MessageRow }> = [];
  const started: Array<{ attempt: AttemptRow; index: number }> = [];
  for (const input of inputs) {
    const row = rowOf(input.messageId);
    const all = attemptsOf.get(row.id) as AttemptRow[];
    if (isHandedOff(row.status, all)) {
      decided.push({ outcome: 'finished', row });
      continue;
    }
    const open = all.filter((a) => a.status === 'sending');
    if (open.length > 0) {
      decided.push({ outcome: 'ambiguous', attempt: open[open.length - 1], row });
      continue;
    }
    const previous = all[all.length - 1];
    // One attempt row per channel tried (docs/messages.md#reading-messages): a retry on the same channel after a known
    // non-acceptance (throttled, transient) or an abandoned unknown outcome reuses the row.
    const reusable = previous && previous.channel === input.channel && (previous.status === 'pending' || previous.status === 'unknown');
    const attempt: AttemptRow = reusable
      ? { ...previous, status: 'sending', attempt_ref: input.attemptRef ?? null, sender: input.sender, updated_at: input.at }
      : {
          id: newId('att'),
          message_id: row.id,
          attempt_no: (previous?.attempt_no ?? 0) + 1,
          channel: input.channel,
          status: 'sending',
          upstream_message_id: null,
          attempt_ref: input.attemptRef ?? null,
          sender: input.sender,
          error_code: null,
          error_message: null,
          upstream_part_ids: null,
          part_statuses: {},
          abandoned_at: null,
          created_at: input.at,
          updated_at: input.at,
        };
    all.splice(reusable ? all.length - 1 : all.length, reusable ? 1 : 0, attempt);
    started.push({ attempt, index: decided.length });
    decided.push({ outcome: 'started', attempt, row });
  }
  if (started.length === 0) return decided.map(toStartResult([]));

  // By the key's name: since migration 013 the key is (id, message_id), the partition key being part of it
  // (docs/storage-layout.md#time-partitioned-tables).
  const { rows: written } = await tx.query<AttemptRow>(
    `INSERT INTO message_attempts (id, message_id, attempt_no, channel, status, attempt_ref, sender, created_at, updated_at)
     SELECT id, message_id, attempt_no, channel, 'sending', attempt_ref, sender, updated_at, updated_at
     FROM jsonb_to_recordset($1::jsonb) AS v(id text, message_id text, attempt_no integer, channel text, attempt_ref integer, sender text, updated_at timestamptz)
     ON CONFLICT ON CONSTRAINT message_attempts_pkey DO UPDATE SET status = 'sending', attempt_ref = EXCLUDED.attempt_ref, sender = EXCLUDED.sender, updated_at = EXCLUDED.updated_at
     RETURNING *`,
    [
      JSON.stringify(
        started.map(({ attempt: a }) => ({
          id: a.id,
          message_id: a.message_id,
          attempt_no: a.attempt_no,
          channel: a.channel,
          attempt_ref: a.attempt_ref,
          sender: a.sender,
          updated_at: a.updated_at,
        })),
      ),
    ],
  );
  // The stored rows replace the ones built in memory, in every list that holds them.
  const stored = new Map(written.map((a) => [a.id, a]));
  for (const list of attemptsOf.values()) list.forEach((a, i) => (list[i] = stored.get(a.id) ?? a));
  for (const entry of decided) if (entry.attempt) entry.attempt = stored.get(entry.attempt.id) ?? entry.attempt;

  const steps: Array<PlannedStep & { index: number }> = [];
  for (const { index } of started) {
    const entry = decided[index];
    const current = rows.get(entry.row.id) as MessageRow;
    const plan = planMessageChange(current, { status: 'sending', at: inputs[index].at });
    if (plan) {
      rows.set(current.id, plan.next);
      steps.push({ plan, attempts: attemptsOf.get(current.id) as AttemptRow[], index });
    }
    entry.row = plan?.next ?? current;
  }
  const events = await writeMessageChanges(tx, steps);
  const eventsAt = new Map(steps.map((step, i) => [step.index, events[i]]));
  return decided.map((entry, index) => toStartResult(eventsAt.get(index) ?? [])(entry));
}

function toStartResult(events: StoredEvent[]) {
  return (entry: { outcome: StartAttemptResult['outcome']; attempt?: AttemptRow; row: MessageRow }): StartAttemptResult =>
    entry.outcome === 'finished'
      ? { outcome: 'finished', row: entry.row, events: [] }
      : { outcome: entry.outcome, attempt: entry.attempt as AttemptRow, row: entry.row, events };
}

export interface AttemptFailedInput {
  messageId: string;
  attemptId: string;
  errorCode: string;
  errorMessage: string;
  at: Date;
  finalStatus?: 'failed' | 'undelivered';
  nextChannel?: string;
  /** The upstream's own code (`131026`, `0x0B`); shown as the message's carrier_status_code. @defaultValue errorCode */
  carrierStatusCode?: string;
}

/** What an upstream's answer does to one attempt, and to its message (null: nothing). */
type Settle<I> = (input: I, attempt: AttemptRow, row: MessageRow) => { attempt: AttemptRow; change: MessageChange | null };

/**
 * Records the upstreams' answers to many attempts in the caller's transaction: the locks, the attempts, one write
 * of the attempts and one of the message changes for the whole batch (docs/performance/dispatch.md#send-batches). The
 * answers are applied in their order on the rows held in memory, so two answers of one message see each other.
 */
async function settleAttemptBatch<I extends { messageId: string; attemptId: string }>(
  tx: Queryable,
  inputs: readonly I[],
  settle: Settle<I>,
): Promise<ChangeResult[]> {
  const { rows, attemptsOf, rowOf } = await lockWithAttempts(
    tx,
    inputs.map((i) => i.messageId),
  );
  const changedAttempts = new Map<string, AttemptRow>();
  const steps: PlannedStep[] = [];
  const results: ChangeResult[] = [];
  for (const input of inputs) {
    const row = rowOf(input.messageId);
    const siblings = attemptsOf.get(row.id) as AttemptRow[];
    const position = siblings.findIndex((a) => a.id === input.attemptId);
    if (position < 0) throw new Error(`attempt ${input.attemptId} of ${input.messageId} is not stored`);
    const { attempt, change } = settle(input, siblings[position], row);
    siblings[position] = attempt;
    changedAttempts.set(attempt.id, attempt);
    const plan = change && planMessageChange(row, change);
    if (!plan) {
      results.push({ row, changed: false, events: [] });
      continue;
    }
    rows.set(row.id, plan.next);
    steps.push({ plan, attempts: [...siblings] });
    results.push({ row: plan.next, changed: true, events: [] });
  }
  await tx.query(
    `UPDATE message_attempts a SET upstream_message_id = v.upstream_message_id, upstream_part_ids = v.upstream_part_ids,
       error_code = v.error_code, error_message = v.error_message, status = v.status, updated_at = v.updated_at
     FROM jsonb_to_recordset($1::jsonb) AS v(id text, message_id text, upstream_message_id text, upstream_part_ids text[], error_code text,
       error_message text, status text, updated_at timestamptz)
     -- By the whole key and the messages' id range: the attempts are partitioned by message id (docs/storage-layout.md#time-partitioned-tables).
     WHERE a.id = v.id AND a.message_id = v.message_id AND a.message_id >= $2 AND a.message_id <= $3`,
    [
      JSON.stringify(
        [...changedAttempts.values()].map(({ id, message_id, upstream_message_id, upstream_part_ids, error_code, error_message, status, updated_at }) => ({
          id,
          message_id,
          upstream_message_id,
          upstream_part_ids,
          error_code,
          error_message,
          status,
          updated_at,
        })),
      ),
      ...idRange([...changedAttempts.values()].map((a) => a.message_id)),
    ],
  );
  const events = await writeMessageChanges(tx, steps);
  let next = 0;
  for (const result of results) if (result.changed) result.events = events[next++];
  return results;
}

/**
 * The upstreams took the messages: each attempt and its message become `sent`. `partIds` (SMS) are the SMSC ids
 * of every part, kept so that a per-part receipt reaching another process still matches.
 */
export function attemptAcceptedBatch(tx: Queryable, inputs: readonly AttemptAcceptedInput[]): Promise<ChangeResult[]> {
  return settleAttemptBatch(tx, inputs, (input, attempt, row) => {
    // An earlier throttled or transient answer on this attempt is no longer its outcome.
    const open = attempt.status === 'sending' || attempt.status === 'unknown';
    const accepted: AttemptRow = {
      ...attempt,
      upstream_message_id: attempt.upstream_message_id ?? input.upstreamMessageId,
      upstream_part_ids: input.partIds && input.partIds.length > 1 ? input.partIds : attempt.upstream_part_ids,
      error_code: open ? null : attempt.error_code,
      error_message: open ? null : attempt.error_message,
      status: open ? 'sent' : attempt.status,
      updated_at: input.at,
    };
    // After a fallback timeout the message is already `sent` on the channel it left; the new channel's
    // acceptance is still recorded, as another `message.sent` (docs/routing.md#time-based-fallback).
    const resent = row.status === 'sent' && row.channel_used !== accepted.channel;
    return {
      attempt: accepted,
      change: {
        status: 'sent',
        at: input.at,
        carrierStatusCode: 'accepted',
        channelUsed: accepted.channel,
        error: null,
        ...(resent ? { eventType: 'message.sent' } : {}),
      },
    };
  });
}

/**
 * The attempts failed. With `finalStatus` the message ends with that error; with `nextChannel` the message moves
 * on (`message.fallback`); with neither, the attempt is closed and the job retries it.
 */
export function attemptFailedBatch(tx: Queryable, inputs: readonly AttemptFailedInput[]): Promise<ChangeResult[]> {
  return settleAttemptBatch(tx, inputs, (input, attempt) => {
    const failed: AttemptRow = { ...attempt, status: 'failed', error_code: input.errorCode, error_message: input.errorMessage, updated_at: input.at };
    if (input.finalStatus) {
      return {
        attempt: failed,
        change: {
          status: input.finalStatus,
          at: input.at,
          carrierStatusCode: input.carrierStatusCode ?? input.errorCode,
          channelUsed: failed.channel,
          error: { code: input.errorCode, message: input.errorMessage },
        },
      };
    }
    if (input.nextChannel) {
      return {
        attempt: failed,
        change: {
          at: input.at,
          eventType: 'message.fallback',
          eventExtra: { fallback: { from: failed.channel, to: input.nextChannel, reason: input.errorCode } },
        },
      };
    }
    return { attempt: failed, change: null };
  });
}
