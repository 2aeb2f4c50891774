import { createPooledIdGenerator } from '@switchboard/domain';
import type { Queryable } from './db';
import { idRange } from './id-range';
import type { PlannedChange, StoredEvent } from './message-change';
import { toMessageResource, type AttemptRow } from './message-resource';
import { messageEventHasTarget } from './repositories/event-targets.repository';

// Pooled ids: the `ulid` package's generator asks the OS for a random byte per character, on every write.
const newId = createPooledIdGenerator();

/** A planned change and the attempts of its message as they stand once it is written (the event shows them). */
export interface PlannedStep {
  plan: PlannedChange;
  attempts: readonly AttemptRow[];
}

/** The message columns a batched change may write; `canceled_at` is not one (only a cancel sets it, never a batch). */
const WRITABLE = new Set([
  'sending_at',
  'sent_at',
  'delivered_at',
  'read_at',
  'failed_at',
  'undelivered_at',
  'carrier_status_code',
  'channel_used',
  'error_code',
  'error_message',
]);

/**
 * Writes many planned message changes in one statement (docs/performance/dispatch.md#send-batches): each message's
 * final row, every history row and every event. The callers hold the messages' row locks and planned the
 * changes of one message one after the other on its row in memory, so the history and event sequences are
 * exactly those of one transaction per change. Returns each step's events, in the order of `steps`.
 * An event no target would receive (no `callback_url` on its message, no enabled endpoint of the account
 * subscribed to its type) is inserted already published and returned with `published: true`: it costs
 * one insert instead of an insert and an update, and no fan-out job (docs/webhooks.md#how-nothing-is-lost).
 */
export async function writeMessageChanges(tx: Queryable, steps: readonly PlannedStep[]): Promise<StoredEvent[][]> {
  if (steps.length === 0) return [];
  const finalRows = new Map<string, PlannedChange['next']>();
  const transitions: unknown[] = [];
  const events: Array<StoredEvent & { data: unknown; created_at: Date }> = [];
  const eventsOfStep: StoredEvent[][] = [];
  for (const { plan, attempts } of steps) {
    for (const column of Object.keys(plan.sets)) {
      if (!WRITABLE.has(column)) throw new Error(`a batched message change cannot write ${column}`);
    }
    const row = plan.next;
    finalRows.set(row.id, row);
    transitions.push({ message_id: row.id, sequence: row.sequence, ...plan.transition });
    const stepEvents: StoredEvent[] = [];
    if (plan.eventType) {
      const event: StoredEvent = { id: newId('evt'), account_id: row.account_id, type: plan.eventType, resource_id: row.id, sequence: row.sequence };
      events.push({ ...event, data: { ...toMessageResource(row, [...attempts]), ...plan.eventExtra, sequence: row.sequence }, created_at: plan.transition.at });
      stepEvents.push(event);
    }
    eventsOfStep.push(stepEvents);
  }
  const { rows } = await tx.query<{ quiet: string[] | null }>(
    `WITH changed AS (
       UPDATE messages m SET status = v.status, sequence = v.sequence, updated_at = v.updated_at, sending_at = v.sending_at,
         sent_at = v.sent_at, delivered_at = v.delivered_at, read_at = v.read_at, failed_at = v.failed_at,
         undelivered_at = v.undelivered_at, carrier_status_code = v.carrier_status_code, channel_used = v.channel_used,
         error_code = v.error_code, error_message = v.error_message
       FROM jsonb_to_recordset($1::jsonb) AS v(id text, status text, sequence integer, updated_at timestamptz, sending_at timestamptz,
         sent_at timestamptz, delivered_at timestamptz, read_at timestamptz, failed_at timestamptz, undelivered_at timestamptz,
         carrier_status_code text, channel_used text, error_code text, error_message text)
       -- The batch's id range prunes to its months (docs/storage-layout.md#time-partitioned-tables).
       WHERE m.id = v.id AND m.id >= $4 AND m.id <= $5 RETURNING m.id
     ), history AS (
       INSERT INTO message_transitions (message_id, sequence, status, channel, carrier_status_code, error_code, at)
       SELECT * FROM jsonb_to_recordset($2::jsonb) AS t(message_id text, sequence integer, status text, channel text,
         carrier_status_code text, error_code text, at timestamptz)
     ), inserted AS (
       INSERT INTO events (id, account_id, type, resource_type, resource_id, sequence, data, created_at, published_at)
       SELECT e.id, e.account_id, e.type, 'message', e.resource_id, e.sequence, e.data, e.created_at,
         CASE WHEN ${messageEventHasTarget('$4', '$5')} THEN NULL ELSE now() END
       FROM jsonb_to_recordset($3::jsonb) AS e(id text, account_id text, type text, resource_id text, sequence integer, data jsonb, created_at timestamptz)
       RETURNING id, published_at
     )
     SELECT (SELECT count(*)::int FROM changed) AS changed, (SELECT array_agg(id) FROM inserted WHERE published_at IS NOT NULL) AS quiet`,
    [JSON.stringify([...finalRows.values()].map(writtenColumns)), JSON.stringify(transitions), JSON.stringify(events), ...idRange(finalRows.keys())],
  );
  const quiet = new Set(rows[0]?.quiet ?? []);
  if (quiet.size > 0) {
    for (const stepEvents of eventsOfStep) for (const event of stepEvents) if (quiet.has(event.id)) event.published = true;
  }
  return eventsOfStep;
}

function writtenColumns(row: PlannedChange['next']) {
  const { id, status, sequence, updated_at, sending_at, sent_at, delivered_at, read_at, failed_at, undelivered_at } = row;
  const { carrier_status_code, channel_used, error_code, error_message } = row;
  return {
    id,
    status,
    sequence,
    updated_at,
    sending_at,
    sent_at,
    delivered_at,
    read_at,
    failed_at,
    undelivered_at,
    carrier_status_code,
    channel_used,
    error_code,
    error_message,
  };
}
