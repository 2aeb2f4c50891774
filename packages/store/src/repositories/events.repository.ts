import { toIso } from '@switchboard/domain';
import type { Queryable } from '../db';
import type { StoredEvent } from '../message-change';
import { preparedStatement } from '../prepared-statements';

// What fan-out reads per event, for several events at once (see fanOutPlans); run many times a second by
// webhook-delivery, hence prepared.
const FAN_OUT_PLANS_SQL = preparedStatement(
  'events-fan-out-plans',
  `SELECT e.id, e.account_id, e.type, e.resource_type, e.resource_id, e.published_at,
           CASE WHEN e.resource_type = 'message' THEN (SELECT m.callback_url FROM messages m WHERE m.id = e.resource_id) END AS callback_url,
           COALESCE((SELECT json_agg(json_build_object('id', w.id, 'url', w.url) ORDER BY w.id) FROM webhook_endpoints w
             WHERE w.account_id = e.account_id AND w.enabled AND w.deleted_at IS NULL
               -- A console test event goes to its one endpoint, whatever that endpoint subscribes to (docs/console.md#pages).
               AND CASE WHEN e.type = 'webhook.test' THEN w.id = e.resource_id ELSE w.events && ARRAY[e.type, '*']::text[] END), '[]') AS endpoints
         FROM events e WHERE e.id = ANY($1)`,
);

export interface EventRow {
  id: string;
  account_id: string;
  type: string;
  resource_type: string;
  resource_id: string;
  sequence: number | null;
  data: Record<string, unknown>;
  created_at: Date;
  published_at: Date | null;
}

/** `failed` marks a dead letter: some target's retries are exhausted. `none`: nothing subscribed. */
export type EventDeliveryStatus = 'none' | 'pending' | 'delivered' | 'failed';

export interface EventView {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
  delivery_status: EventDeliveryStatus;
}

/** What fan-out needs in one round trip: the event, its resource's callback_url, and its subscribers. */
export interface FanOutPlan {
  event: Pick<EventRow, 'id' | 'account_id' | 'type' | 'resource_type' | 'resource_id' | 'published_at'>;
  /** Null for a resource without one, and for call events (read apart, see `callbackUrl`). */
  callbackUrl: string | null;
  /** Enabled endpoints of the account subscribed to the type or to `*`; ids and URLs only, never secrets. */
  endpoints: Array<{ id: string; url: string }>;
}

/** The body every delivery posts (docs/webhooks.md#envelope-and-headers). Serialised once per attempt, so key order is stable. */
export function toEnvelope(row: Pick<EventRow, 'id' | 'type' | 'created_at' | 'data'>): {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
} {
  return { id: row.id, type: row.type, created_at: toIso(row.created_at) as string, data: row.data };
}

const DELIVERY_STATUS_SQL = `
  CASE WHEN bool_or(d.status = 'failed') THEN 'failed'
       WHEN bool_or(d.status = 'pending') THEN 'pending'
       WHEN count(d.id) > 0 THEN 'delivered'
       ELSE 'none' END AS delivery_status`;

function toView(row: EventRow & { delivery_status: EventDeliveryStatus }): EventView {
  return { ...toEnvelope(row), delivery_status: row.delivery_status };
}

export function createEventsRepository(db: Queryable) {
  /** The URL the resource itself asked for, if any: a message's (or later a call's) `callback_url`. */
  async function callbackUrl(resourceType: string, resourceId: string): Promise<string | null> {
    if (resourceType !== 'message' && resourceType !== 'call') return null;
    const table = resourceType === 'message' ? 'messages' : 'calls';
    try {
      const { rows } = await db.query<{ callback_url: string | null }>(`SELECT callback_url FROM ${table} WHERE id = $1`, [resourceId]);
      return rows[0]?.callback_url ?? null;
    } catch (error) {
      // The calls table arrives with the voice service; until then a call event has no callback.
      if ((error as { code?: string }).code === '42P01') return null;
      throw error;
    }
  }

  return {
    async findById(id: string): Promise<EventRow | null> {
      const { rows } = await db.query<EventRow>('SELECT * FROM events WHERE id = $1', [id]);
      return rows[0] ?? null;
    },

    async findForAccount(accountId: string, id: string): Promise<EventView | null> {
      const { rows } = await db.query<EventRow & { delivery_status: EventDeliveryStatus }>(
        `SELECT e.*, ${DELIVERY_STATUS_SQL} FROM events e LEFT JOIN webhook_deliveries d ON d.event_id = e.id
         WHERE e.id = $1 AND e.account_id = $2 GROUP BY e.id`,
        [id, accountId],
      );
      return rows[0] ? toView(rows[0]) : null;
    },

    async list(accountId: string, filter: { type?: string; resourceId?: string; beforeId?: string; limit: number }): Promise<EventView[]> {
      const { rows } = await db.query<EventRow & { delivery_status: EventDeliveryStatus }>(
        `SELECT e.*, ${DELIVERY_STATUS_SQL} FROM events e LEFT JOIN webhook_deliveries d ON d.event_id = e.id
         WHERE e.account_id = $1 AND ($2::text IS NULL OR e.type = $2) AND ($3::text IS NULL OR e.resource_id = $3)
           AND ($4::text IS NULL OR e.id < $4)
         GROUP BY e.id ORDER BY e.id DESC LIMIT $5`,
        [accountId, filter.type ?? null, filter.resourceId ?? null, filter.beforeId ?? null, filter.limit],
      );
      return rows.map(toView);
    },

    /**
     * One query instead of three (event, callback_url, subscribers) for several events at once: store
     * round trips, not SQL work, bound delivery throughput (docs/performance.md). Only messages are
     * joined for the callback_url because the calls table may not exist yet; call events read it apart.
     */
    async fanOutPlans(ids: string[]): Promise<Map<string, FanOutPlan>> {
      const { rows } = await db.query<FanOutPlan['event'] & { callback_url: string | null; endpoints: FanOutPlan['endpoints'] }>(FAN_OUT_PLANS_SQL, [ids]);
      const plans = new Map<string, FanOutPlan>();
      for (const { callback_url, endpoints, ...event } of rows) {
        const url = event.resource_type === 'call' ? await callbackUrl('call', event.resource_id) : callback_url;
        plans.set(event.id, { event, callbackUrl: url, endpoints });
      }
      return plans;
    },

    /** The outbox: events a crash left unpublished (committed, never enqueued), oldest first. */
    async unpublished(olderThan: Date, limit: number): Promise<StoredEvent[]> {
      const { rows } = await db.query<StoredEvent>(
        `SELECT id, account_id, type, resource_id, sequence FROM events
         WHERE published_at IS NULL AND created_at < $1 ORDER BY created_at LIMIT $2`,
        [olderThan, limit],
      );
      return rows;
    },

    async markPublished(ids: string[], at: Date): Promise<void> {
      if (ids.length === 0) return;
      await db.query('UPDATE events SET published_at = $2 WHERE id = ANY($1) AND published_at IS NULL', [ids, at]);
    },

    callbackUrl,
  };
}
export type EventsRepository = ReturnType<typeof createEventsRepository>;
