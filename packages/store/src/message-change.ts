import { canAdvance, createPooledIdGenerator, eventTypeForStatus, STATUS_TIMESTAMP, type MessageStatus } from '@switchboard/domain';
import type { Queryable } from './db';
import { toMessageResource, type AttemptRow, type MessageRow } from './message-resource';

// Pooled ids: the `ulid` package's generator asks the OS for a random byte per character, on every write.
const newId = createPooledIdGenerator();

export interface MessageChange {
  status?: MessageStatus;
  at: Date;
  carrierStatusCode?: string | null;
  channelUsed?: string;
  /** Written only when the status moves forward; `null` clears an earlier error (delivered after undelivered). */
  error?: { code: string; message: string } | null;
  /** An event that is not a status change (message.fallback); forces a new sequence number. */
  eventType?: string;
  /** Extra fields merged into the event's `data` (for example the fallback's from/to channels). */
  eventExtra?: Record<string, unknown>;
}

export interface StoredEvent {
  id: string;
  account_id: string;
  type: string;
  resource_id: string;
  sequence: number;
  /**
   * Inserted already published, because no target would receive it: publishing skips it
   * (docs/webhooks.md#how-nothing-is-lost). @defaultValue false
   */
  published?: boolean;
}

export interface ChangeResult {
  row: MessageRow;
  changed: boolean;
  events: StoredEvent[];
}

export async function lockMessage(tx: Queryable, id: string): Promise<MessageRow | null> {
  const { rows } = await tx.query<MessageRow>('SELECT * FROM messages WHERE id = $1 FOR UPDATE', [id]);
  return rows[0] ?? null;
}

/** What one change does to a message, computed without a round trip (docs/performance/dispatch.md#send-batches). */
export interface PlannedChange {
  /** The row as it stands once the change is written. */
  next: MessageRow;
  /** Columns written beyond status, sequence and updated_at. */
  sets: Record<string, unknown>;
  transition: { status: string; channel: string | null; carrier_status_code: string | null; error_code: string | null; at: Date };
  eventType: string | null;
  eventExtra?: Record<string, unknown>;
}

/**
 * The rules of a change on a locked message row: status only moves forward, a missing timestamp is filled
 * even by a late receipt, and every effective change gets the next `sequence`, a history row and, where
 * docs/webhooks.md#events lists one, an event. Null when the change changes nothing.
 */
export function planMessageChange(row: MessageRow, change: MessageChange): PlannedChange | null {
  const advances = change.status !== undefined && canAdvance(row.status as MessageStatus, change.status);
  const nextStatus = advances ? (change.status as MessageStatus) : (row.status as MessageStatus);
  const column = change.status ? STATUS_TIMESTAMP[change.status] : null;
  const isFailure = change.status === 'failed' || change.status === 'undelivered';
  // A late failure never stamps a message that already got further; a late success fills its gap.
  const fillsTimestamp = column !== null && column !== 'created_at' && (row as unknown as Record<string, unknown>)[column] === null && (advances || !isFailure);
  if (!advances && !fillsTimestamp && !change.eventType) return null;

  const sets: Record<string, unknown> = {};
  if (fillsTimestamp && column) sets[column] = change.at;
  // Only a forward move rewrites the carrier code and the error: a late receipt that merely fills a
  // timestamp must not replace the code of the furthest state, nor clear the error of a failed message.
  if (change.carrierStatusCode !== undefined && advances) sets.carrier_status_code = change.carrierStatusCode;
  if (change.channelUsed !== undefined) sets.channel_used = change.channelUsed;
  if (change.error !== undefined && advances) {
    sets.error_code = change.error?.code ?? null;
    sets.error_message = change.error?.message ?? null;
  }
  const next = { ...row, ...sets, status: nextStatus, sequence: row.sequence + 1, updated_at: change.at } as MessageRow;
  return {
    next,
    sets,
    transition: {
      status: change.eventType && !change.status ? change.eventType.replace('message.', '') : (change.status ?? nextStatus),
      channel: change.channelUsed ?? next.channel_used,
      carrier_status_code: change.carrierStatusCode ?? null,
      error_code: change.error?.code ?? null,
      at: change.at,
    },
    eventType: change.eventType ?? (change.status ? eventTypeForStatus(change.status) : null),
    eventExtra: change.eventExtra,
  };
}

/**
 * Applies one change to a locked message row (the rules are `planMessageChange`'s): the row, its history row and its event.
 * `attempts`, when the caller already holds every attempt of the message as it now stands, spares the event one read.
 */
export async function applyMessageChange(tx: Queryable, row: MessageRow, change: MessageChange, attempts?: readonly AttemptRow[]): Promise<ChangeResult> {
  const plan = planMessageChange(row, change);
  if (!plan) return { row, changed: false, events: [] };
  const values: unknown[] = [row.id, plan.next.status, plan.next.sequence, change.at];
  const sets: string[] = ['status = $2', 'sequence = $3', 'updated_at = $4'];
  for (const [columnName, value] of Object.entries(plan.sets)) {
    values.push(value);
    sets.push(`${columnName} = $${values.length}`);
  }
  const { rows } = await tx.query<MessageRow>(`UPDATE messages SET ${sets.join(', ')} WHERE id = $1 RETURNING *`, values);
  const updated = rows[0];
  const t = plan.transition;
  await tx.query(
    `INSERT INTO message_transitions (message_id, sequence, status, channel, carrier_status_code, error_code, at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [row.id, plan.next.sequence, t.status, t.channel, t.carrier_status_code, t.error_code, t.at],
  );
  const events: StoredEvent[] = [];
  if (plan.eventType) events.push(await insertMessageEvent(tx, updated, plan.eventType, change.at, plan.eventExtra, attempts));
  return { row: updated, changed: true, events };
}

async function insertMessageEvent(
  tx: Queryable,
  row: MessageRow,
  type: string,
  at: Date,
  extra: Record<string, unknown> = {},
  known?: readonly AttemptRow[],
): Promise<StoredEvent> {
  const attempts = known ? [...known] : (await tx.query<AttemptRow>('SELECT * FROM message_attempts WHERE message_id = $1 ORDER BY attempt_no', [row.id])).rows;
  const id = newId('evt');
  const data = { ...toMessageResource(row, attempts), ...extra, sequence: row.sequence };
  await tx.query(
    `INSERT INTO events (id, account_id, type, resource_type, resource_id, sequence, data, created_at)
     VALUES ($1, $2, $3, 'message', $4, $5, $6, $7)`,
    [id, row.account_id, type, row.id, row.sequence, JSON.stringify(data), at],
  );
  return { id, account_id: row.account_id, type, resource_id: row.id, sequence: row.sequence };
}
