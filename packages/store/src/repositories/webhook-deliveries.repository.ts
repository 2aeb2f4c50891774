import { newId, toIso } from '@switchboard/domain';
import type { Queryable } from '../db';

export interface WebhookDeliveryRow {
  id: string;
  event_id: string;
  account_id: string;
  target_key: string;
  endpoint_id: string | null;
  url: string;
  status: 'pending' | 'delivered' | 'failed';
  generation: number;
  attempt_count: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  failed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface DeliveryTarget {
  /** The endpoint id, or `callback` for the resource's own callback_url. */
  targetKey: string;
  endpointId: string | null;
  url: string;
}

export interface AttemptRecord {
  deliveryId: string;
  endpointId: string | null;
  url: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseSize: number | null;
  responseExcerpt: string | null;
  at: Date;
}

export interface AttemptView {
  id: string;
  delivery_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  url: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_size: number | null;
  delivery_status: string;
  created_at: string;
}

export const CALLBACK_TARGET = 'callback';

export function createWebhookDeliveriesRepository(db: Queryable) {
  return {
    /** Idempotent per (event, target): a fan-out that runs again after a crash adds nothing. */
    async createForEvent(event: { id: string; account_id: string }, targets: DeliveryTarget[], at: Date): Promise<void> {
      for (const t of targets) {
        await db.query(
          `INSERT INTO webhook_deliveries (id, event_id, account_id, target_key, endpoint_id, url, status, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $7) ON CONFLICT (event_id, target_key) DO NOTHING`,
          [newId('dlv'), event.id, event.account_id, t.targetKey, t.endpointId, t.url, at],
        );
      }
    },

    async pendingForEvent(eventId: string): Promise<WebhookDeliveryRow[]> {
      const { rows } = await db.query<WebhookDeliveryRow>(
        `SELECT * FROM webhook_deliveries WHERE event_id = $1 AND status = 'pending' ORDER BY id`,
        [eventId],
      );
      return rows;
    },

    async forEvent(eventId: string): Promise<WebhookDeliveryRow[]> {
      const { rows } = await db.query<WebhookDeliveryRow>('SELECT * FROM webhook_deliveries WHERE event_id = $1 ORDER BY id', [eventId]);
      return rows;
    },

    async findById(id: string): Promise<WebhookDeliveryRow | null> {
      const { rows } = await db.query<WebhookDeliveryRow>('SELECT * FROM webhook_deliveries WHERE id = $1', [id]);
      return rows[0] ?? null;
    },

    /** Stores one attempt and bumps the delivery's counters; returns the attempt number. */
    async recordAttempt(a: AttemptRecord): Promise<number> {
      const { rows } = await db.query<{ attempt_count: number }>(
        `UPDATE webhook_deliveries SET attempt_count = attempt_count + 1, last_status_code = $2, last_error = $3, updated_at = $4
         WHERE id = $1 RETURNING attempt_count`,
        [a.deliveryId, a.statusCode, a.error, a.at],
      );
      const attemptNo = rows[0]?.attempt_count ?? 0;
      await db.query(
        `INSERT INTO webhook_attempts (id, delivery_id, endpoint_id, attempt_no, url, status_code, latency_ms, error, response_size, response_excerpt, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [newId('att'), a.deliveryId, a.endpointId, attemptNo, a.url, a.statusCode, Math.round(a.latencyMs), a.error, a.responseSize, a.responseExcerpt, a.at],
      );
      return attemptNo;
    },

    /** Only a pending delivery of the same generation moves; a stale or redelivered job changes nothing. */
    async markDelivered(id: string, generation: number, at: Date): Promise<void> {
      await db.query(
        `UPDATE webhook_deliveries SET status = 'delivered', delivered_at = $3, next_attempt_at = NULL, updated_at = $3
         WHERE id = $1 AND generation = $2 AND status = 'pending'`,
        [id, generation, at],
      );
    },

    /** The dead letter: retries exhausted or the target refused for good. Visible through the API, redeliverable. */
    async markFailed(id: string, generation: number, error: string, at: Date): Promise<void> {
      await db.query(
        `UPDATE webhook_deliveries SET status = 'failed', failed_at = $4, last_error = $3, next_attempt_at = NULL, updated_at = $4
         WHERE id = $1 AND generation = $2 AND status = 'pending'`,
        [id, generation, error, at],
      );
    },

    async scheduleRetry(id: string, at: Date): Promise<void> {
      await db.query('UPDATE webhook_deliveries SET next_attempt_at = $2 WHERE id = $1', [id, at]);
    },

    /** Redelivery: every delivery of the event goes back to pending under a new generation. */
    async resetForRedelivery(eventId: string, at: Date): Promise<number> {
      const { rowCount } = await db.query(
        `UPDATE webhook_deliveries SET status = 'pending', generation = generation + 1, delivered_at = NULL, failed_at = NULL,
           next_attempt_at = NULL, updated_at = $2 WHERE event_id = $1`,
        [eventId, at],
      );
      return rowCount ?? 0;
    },

    /** Attempts to one endpoint, newest first (`GET /v1/webhooks/{id}/deliveries`). */
    async attemptsForEndpoint(endpointId: string, page: { beforeId?: string; limit: number }): Promise<AttemptView[]> {
      const { rows } = await db.query<Omit<AttemptView, 'created_at' | 'attempt'> & { attempt_no: number; created_at: Date }>(
        `SELECT a.id, a.delivery_id, d.event_id, e.type AS event_type, a.attempt_no, a.url, a.status_code, a.latency_ms, a.error,
                a.response_size, d.status AS delivery_status, a.created_at
         FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id JOIN events e ON e.id = d.event_id
         WHERE a.endpoint_id = $1 AND ($2::text IS NULL OR a.id < $2) ORDER BY a.id DESC LIMIT $3`,
        [endpointId, page.beforeId ?? null, page.limit],
      );
      return rows.map(({ attempt_no, created_at, ...rest }) => ({ ...rest, attempt: attempt_no, created_at: toIso(created_at) as string }));
    },

    async attemptsForDelivery(deliveryId: string): Promise<Array<{ attempt_no: number; status_code: number | null; error: string | null; latency_ms: number }>> {
      const { rows } = await db.query<{ attempt_no: number; status_code: number | null; error: string | null; latency_ms: number }>(
        'SELECT attempt_no, status_code, error, latency_ms FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt_no',
        [deliveryId],
      );
      return rows;
    },
  };
}
export type WebhookDeliveriesRepository = ReturnType<typeof createWebhookDeliveriesRepository>;
