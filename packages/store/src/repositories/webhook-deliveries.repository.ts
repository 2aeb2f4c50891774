import { createPooledIdGenerator, toIso } from '@switchboard/domain';
import type { Queryable } from '../db';
import { preparedStatement } from '../prepared-statements';
import type { SecretCipher } from '../secret-cipher';
import { callbackSecretLocation } from './accounts.repository';
import { openEndpointSecrets } from './webhook-endpoints.repository';
import {
  type WebhookDeliveryRow,
  type DeliveryTarget,
  type AttemptRecord,
  type AttemptView,
  type PendingDelivery,
  type DeliveryForAttempt,
  type AttemptEffects,
} from './webhook-deliveries.types';

export * from './webhook-deliveries.types';

// Two ids per delivered event (the delivery and its attempt): from a pooled random buffer, since `ulid`
// reads the OS's random source once per character (docs/performance/webhooks.md#why-each-large-gain-holds).
const newId = createPooledIdGenerator();

// $11 generation, $12 final status: the delivery ends only while pending in the job's generation.
const SETTLES = `generation = $11 AND status = 'pending' AND $12::text IS NOT NULL`;

// One statement per attempt (counters, final status, attempt row, the endpoint's failure run) instead
// of four round trips. Columns named in SET read the row as it was, so every CASE sees the old status.
const STORE_ATTEMPT_SQL = `
WITH delivery AS (
  UPDATE webhook_deliveries SET
    attempt_count = attempt_count + 1,
    last_status_code = $5,
    last_error = CASE WHEN ${SETTLES} AND $12 = 'failed' THEN $13 ELSE $7 END,
    status = CASE WHEN ${SETTLES} THEN $12 ELSE status END,
    delivered_at = CASE WHEN ${SETTLES} AND $12 = 'delivered' THEN $10 ELSE delivered_at END,
    failed_at = CASE WHEN ${SETTLES} AND $12 = 'failed' THEN $10 ELSE failed_at END,
    next_attempt_at = CASE WHEN ${SETTLES} THEN NULL ELSE COALESCE($14, next_attempt_at) END,
    updated_at = $10
  WHERE id = $2 RETURNING attempt_count),
attempt AS (
  INSERT INTO webhook_attempts (id, delivery_id, endpoint_id, attempt_no, url, status_code, latency_ms, error, response_size, response_excerpt, created_at)
  SELECT $1, $2, $3, attempt_count, $4, $5, $6, $7, $8, $9, $10 FROM delivery),
recovered AS (
  UPDATE webhook_endpoints SET failing_since = NULL WHERE $15::text = 'success' AND id = $3 AND failing_since IS NOT NULL),
failing AS (
  UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $10) WHERE $15::text = 'failure' AND id = $3 RETURNING failing_since)
SELECT attempt_count, (SELECT failing_since FROM failing) AS failing_since FROM delivery`;

// The success path of many attempts in one statement (see storeSuccesses): per row, what
// STORE_ATTEMPT_SQL does with settle = delivered and endpointRun = success. Every delivery id appears
// once per statement, so each row is updated once; the endpoints' failure runs end once per endpoint.
const STORE_SUCCESSES_SQL = preparedStatement(
  'webhook-deliveries-store-successes',
  `
WITH input AS (
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::int[], $8::text[], $9::timestamptz[], $10::int[])
    AS i(attempt_id, delivery_id, endpoint_id, url, status_code, latency_ms, response_size, response_excerpt, at, generation)),
delivery AS (
  UPDATE webhook_deliveries d SET
    attempt_count = d.attempt_count + 1,
    last_status_code = i.status_code,
    last_error = NULL,
    status = CASE WHEN d.generation = i.generation AND d.status = 'pending' THEN 'delivered' ELSE d.status END,
    delivered_at = CASE WHEN d.generation = i.generation AND d.status = 'pending' THEN i.at ELSE d.delivered_at END,
    next_attempt_at = CASE WHEN d.generation = i.generation AND d.status = 'pending' THEN NULL ELSE d.next_attempt_at END,
    updated_at = i.at
  FROM input i WHERE d.id = i.delivery_id RETURNING d.id, d.attempt_count),
attempt AS (
  INSERT INTO webhook_attempts (id, delivery_id, endpoint_id, attempt_no, url, status_code, latency_ms, error, response_size, response_excerpt, created_at)
  SELECT i.attempt_id, i.delivery_id, i.endpoint_id, delivery.attempt_count, i.url, i.status_code, i.latency_ms, NULL, i.response_size, i.response_excerpt, i.at
  FROM input i JOIN delivery ON delivery.id = i.delivery_id RETURNING id),
recovered AS (
  UPDATE webhook_endpoints SET failing_since = NULL
  WHERE id IN (SELECT endpoint_id FROM input WHERE endpoint_id IS NOT NULL) AND failing_since IS NOT NULL)
SELECT count(*)::int AS stored FROM attempt`,
);

/** The flat row `findForAttempt` reads; the endpoint columns are null for a callback_url delivery. */
type AttemptRow = Omit<DeliveryForAttempt, 'event' | 'endpoint'> &
  Omit<NonNullable<DeliveryForAttempt['endpoint']>, 'enabled' | 'secret'> & {
    enabled: boolean | null;
    secret: string | null;
    event_id: string;
    event_type: string;
    event_created_at: Date;
    event_data: Record<string, unknown>;
  };

// What one attempt reads besides the delivery `d`: its event, its endpoint's secrets or its account's callback secret.
const ATTEMPT_COLUMNS = `d.id, d.account_id, d.endpoint_id, d.url, d.status, d.generation,
  e.id AS event_id, e.type AS event_type, e.created_at AS event_created_at, e.data AS event_data,
  w.enabled, w.deleted_at, w.disabled_reason, w.secret, w.previous_secret, w.previous_secret_expires_at, a.callback_secret`;
const ATTEMPT_JOINS = `JOIN events e ON e.id = d.event_id
  LEFT JOIN webhook_endpoints w ON w.id = d.endpoint_id
  LEFT JOIN accounts a ON d.endpoint_id IS NULL AND a.id = d.account_id`;

// createForEvents' statement: inserts the missing deliveries, lists every pending one ($8 = the events).
const CREATE_FOR_EVENTS_SQL = `
WITH inserted AS (
  INSERT INTO webhook_deliveries (id, event_id, account_id, target_key, endpoint_id, url, status, created_at, updated_at)
  SELECT t.id, t.event_id, t.account_id, t.target_key, t.endpoint_id, t.url, 'pending', $1, $1
  FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS t(id, event_id, account_id, target_key, endpoint_id, url)
  ON CONFLICT (event_id, target_key) DO NOTHING RETURNING *),
pending AS (
  SELECT * FROM inserted
  UNION ALL SELECT * FROM webhook_deliveries WHERE event_id = ANY($8) AND status = 'pending')`;

// The fan-out's statement (createForEventsToAttempt) and a retry's read (findForAttempt): the hot paths of
// webhook-delivery, prepared. Their results name their columns, so a column added later does not change them.
const CREATE_TO_ATTEMPT_SQL = preparedStatement(
  'webhook-deliveries-create-to-attempt',
  `${CREATE_FOR_EVENTS_SQL} SELECT ${ATTEMPT_COLUMNS}, d.attempt_count FROM pending d ${ATTEMPT_JOINS} ORDER BY d.id`,
);
const FIND_FOR_ATTEMPT_SQL = preparedStatement(
  'webhook-deliveries-find-for-attempt',
  `SELECT ${ATTEMPT_COLUMNS} FROM webhook_deliveries d ${ATTEMPT_JOINS} WHERE d.id = ANY($1)`,
);

export function createWebhookDeliveriesRepository(db: Queryable, secrets: SecretCipher) {
  /** A row of ATTEMPT_COLUMNS with its secrets opened; a secret that does not open fails this delivery only. */
  function toDeliveryForAttempt(r: AttemptRow): DeliveryForAttempt {
    const {
      event_id,
      event_type,
      event_created_at,
      event_data,
      enabled,
      deleted_at,
      disabled_reason,
      secret,
      previous_secret,
      previous_secret_expires_at,
      ...delivery
    } = r;
    const endpoint = secret === null ? null : { enabled: enabled === true, deleted_at, disabled_reason, secret, previous_secret, previous_secret_expires_at };
    const base = { ...delivery, event: { id: event_id, type: event_type, created_at: event_created_at, data: event_data } };
    try {
      return {
        ...base,
        endpoint: endpoint === null || r.endpoint_id === null ? null : openEndpointSecrets(secrets, r.endpoint_id, endpoint),
        callback_secret: r.callback_secret === null ? null : secrets.open(r.callback_secret, callbackSecretLocation(r.account_id)),
      };
    } catch (error) {
      const withoutSecrets = endpoint === null ? null : { ...endpoint, secret: '', previous_secret: null };
      return { ...base, endpoint: withoutSecrets, callback_secret: null, secrets_error: (error as Error).message };
    }
  }

  /** Stores one attempt and applies its effects; `failingSince` is the endpoint's run start after a failure. */
  async function storeAttempt(a: AttemptRecord, effects: AttemptEffects = {}): Promise<{ attemptNo: number; failingSince: Date | null }> {
    const { settle } = effects;
    const { rows } = await db.query<{ attempt_count: number; failing_since: Date | null }>(STORE_ATTEMPT_SQL, [
      newId('att'),
      a.deliveryId,
      a.endpointId,
      a.url,
      a.statusCode,
      Math.round(a.latencyMs),
      a.error,
      a.responseSize,
      a.responseExcerpt,
      a.at,
      settle?.generation ?? null,
      settle?.status ?? null,
      settle?.status === 'failed' ? settle.reason : null,
      effects.nextAttemptAt ?? null,
      a.endpointId ? (effects.endpointRun ?? null) : null,
    ]);
    return { attemptNo: rows[0]?.attempt_count ?? 0, failingSince: rows[0]?.failing_since ?? null };
  }

  /**
   * Successful attempts of several deliveries in one round trip, each exactly as
   * `storeAttempt(a, { settle: { generation, status: 'delivered' }, endpointRun: 'success' })` stores it.
   * Two attempts of one delivery never share a statement (the row would be updated once): a repeated
   * delivery id goes to a following statement.
   */
  async function storeSuccesses(items: Array<{ attempt: AttemptRecord; generation: number }>): Promise<void> {
    let rest = items;
    while (rest.length > 0) {
      const seen = new Set<string>();
      const now: typeof items = [];
      const later: typeof items = [];
      for (const item of rest) {
        if (seen.has(item.attempt.deliveryId)) later.push(item);
        else {
          seen.add(item.attempt.deliveryId);
          now.push(item);
        }
      }
      const a = now.map((i) => i.attempt);
      await db.query(STORE_SUCCESSES_SQL, [
        a.map(() => newId('att')),
        a.map((x) => x.deliveryId),
        a.map((x) => x.endpointId),
        a.map((x) => x.url),
        a.map((x) => x.statusCode),
        a.map((x) => Math.round(x.latencyMs)),
        a.map((x) => x.responseSize),
        a.map((x) => x.responseExcerpt),
        a.map((x) => x.at),
        now.map((i) => i.generation),
      ]);
      rest = later;
    }
  }

  /**
   * Idempotent per (event, target): a fan-out that runs again after a crash adds nothing. Plans several
   * events in one round trip and returns, per event, every pending delivery, new or older: the SELECT
   * branch reads the snapshot from before the INSERT, so a row is never listed twice.
   */
  function createParams(plans: Array<{ event: { id: string; account_id: string }; targets: DeliveryTarget[] }>, at: Date): unknown[] {
    const rows = plans.flatMap(({ event, targets }) => targets.map((t) => ({ event, t })));
    return [
      at,
      rows.map(() => newId('dlv')),
      rows.map((r) => r.event.id),
      rows.map((r) => r.event.account_id),
      rows.map((r) => r.t.targetKey),
      rows.map((r) => r.t.endpointId),
      rows.map((r) => r.t.url),
      plans.map((p) => p.event.id),
    ];
  }

  /**
   * Idempotent per (event, target): a fan-out that runs again after a crash adds nothing. Plans several
   * events in one round trip and returns, per event, every pending delivery, new or older: the SELECT
   * branch reads the snapshot from before the INSERT, so a row is never listed twice.
   */
  async function createForEvents(
    plans: Array<{ event: { id: string; account_id: string }; targets: DeliveryTarget[] }>,
    at: Date,
  ): Promise<PendingDelivery[][]> {
    const { rows: pending } = await db.query<PendingDelivery & { event_id: string }>(
      `${CREATE_FOR_EVENTS_SQL} SELECT event_id, id, generation, attempt_count FROM pending ORDER BY id`,
      createParams(plans, at),
    );
    return plans.map((p) => pending.filter((d) => d.event_id === p.event.id).map(({ id, generation, attempt_count }) => ({ id, generation, attempt_count })));
  }

  /**
   * createForEvents, each pending delivery also read as `findForAttempt` reads it, in the same round
   * trip: what the fan-out needs to make the first attempts at once.
   */
  async function createForEventsToAttempt(
    plans: Array<{ event: { id: string; account_id: string }; targets: DeliveryTarget[] }>,
    at: Date,
  ): Promise<Array<Array<PendingDelivery & { forAttempt: DeliveryForAttempt }>>> {
    const { rows } = await db.query<AttemptRow & { attempt_count: number }>(CREATE_TO_ATTEMPT_SQL, createParams(plans, at));
    const pending = rows.map(({ attempt_count, ...row }) => ({ id: row.id, generation: row.generation, attempt_count, forAttempt: toDeliveryForAttempt(row) }));
    return plans.map((p) => pending.filter((d) => d.forAttempt.event.id === p.event.id));
  }

  return {
    createForEvents,

    createForEventsToAttempt,

    async createForEvent(event: { id: string; account_id: string }, targets: DeliveryTarget[], at: Date): Promise<PendingDelivery[]> {
      return (await createForEvents([{ event, targets }], at))[0];
    },

    async pendingForEvent(eventId: string): Promise<WebhookDeliveryRow[]> {
      const { rows } = await db.query<WebhookDeliveryRow>(`SELECT * FROM webhook_deliveries WHERE event_id = $1 AND status = 'pending' ORDER BY id`, [eventId]);
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

    /**
     * Deliveries with their event and signing secrets, read fresh on every attempt so that a rotated
     * secret or a disabled endpoint takes effect at once (secrets never travel in job payloads). Takes
     * several ids so that concurrent attempts can share one round trip.
     */
    async findForAttempt(ids: string[]): Promise<Map<string, DeliveryForAttempt>> {
      const { rows } = await db.query<AttemptRow>(FIND_FOR_ATTEMPT_SQL, [ids]);
      return new Map(rows.map((r) => [r.id, toDeliveryForAttempt(r)]));
    },

    storeAttempt,

    storeSuccesses,

    /** Stores one attempt and bumps the delivery's counters; returns the attempt number. */
    async recordAttempt(a: AttemptRecord): Promise<number> {
      return (await storeAttempt(a)).attemptNo;
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

    async attemptsForDelivery(
      deliveryId: string,
    ): Promise<Array<{ attempt_no: number; status_code: number | null; error: string | null; latency_ms: number }>> {
      const { rows } = await db.query<{ attempt_no: number; status_code: number | null; error: string | null; latency_ms: number }>(
        'SELECT attempt_no, status_code, error, latency_ms FROM webhook_attempts WHERE delivery_id = $1 ORDER BY attempt_no',
        [deliveryId],
      );
      return rows;
    },
  };
}
export type WebhookDeliveriesRepository = ReturnType<typeof createWebhookDeliveriesRepository>;
