import type { Db } from '../db';

/**
 * Which just-committed events anyone would receive (docs/webhooks.md#events): a message event whose message
 * has a `callback_url`, or any event of an account with an enabled endpoint subscribed to its type (the
 * test event goes to its one endpoint). Call events, whose callback is looked up elsewhere, always count
 * as having a target. The conditions are those of the fan-out plan (`EventsRepository.fanOutPlans`).
 */
const HAS_TARGET = `
  e.resource_type <> 'message'
  OR EXISTS (SELECT 1 FROM messages m WHERE m.id = e.resource_id AND m.callback_url IS NOT NULL)
  OR EXISTS (SELECT 1 FROM webhook_endpoints w
             WHERE w.account_id = e.account_id AND w.enabled AND w.deleted_at IS NULL
               AND CASE WHEN e.type = 'webhook.test' THEN w.id = e.resource_id ELSE w.events && ARRAY[e.type, '*']::text[] END)`;

/**
 * The same conditions for a message event not yet inserted, read from a row `e` with `account_id`, `type` and
 * `resource_id` (the message id): the batched change statement inserts an event nobody would receive already
 * published (docs/webhooks.md#how-nothing-is-lost). `lo` and `hi` are the placeholders of the messages' id range,
 * which prunes the look-up to their months (docs/storage-layout.md#time-partitioned-tables).
 */
export const messageEventHasTarget = (lo: string, hi: string) => `
  EXISTS (SELECT 1 FROM messages m WHERE m.id = e.resource_id AND m.id >= ${lo} AND m.id <= ${hi} AND m.callback_url IS NOT NULL)
  OR EXISTS (SELECT 1 FROM webhook_endpoints w
             WHERE w.account_id = e.account_id AND w.enabled AND w.deleted_at IS NULL AND w.events && ARRAY[e.type, '*']::text[])`;

export function createEventTargetsRepository(db: Db) {
  return {
    /**
     * Marks published, in one statement, the events no target would receive (fan-out would plan no
     * delivery for them), and returns the ids of the others, which still have to be handed to fan-out.
     * An event stays in the table either way (`GET /v1/events`); only its fan-out job is spared.
     */
    async publishUntargeted(ids: readonly string[], at: Date): Promise<string[]> {
      if (ids.length === 0) return [];
      const { rows } = await db.query<{ id: string; targeted: boolean }>(
        `WITH judged AS (
           SELECT e.id, (${HAS_TARGET}) AS targeted FROM events e WHERE e.id = ANY($1::text[])
         ), quiet AS (
           UPDATE events SET published_at = $2
           WHERE id IN (SELECT id FROM judged WHERE NOT targeted) AND published_at IS NULL
         )
         SELECT id, targeted FROM judged`,
        [ids, at],
      );
      const judged = new Map(rows.map((row) => [row.id, row.targeted]));
      // An id the statement did not see (not committed yet, which no caller does) keeps the safe path: fan-out.
      return ids.filter((id) => judged.get(id) !== false);
    },
  };
}
export type EventTargetsRepository = ReturnType<typeof createEventTargetsRepository>;
