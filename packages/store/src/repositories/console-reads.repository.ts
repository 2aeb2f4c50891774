import { newId } from '@switchboard/domain';
import type { Queryable } from '../db';

export interface ApiKeyListing {
  id: string;
  display_prefix: string;
  mode: 'live' | 'test';
  scopes: string[];
  rate_limit_per_second: number | null;
  created_at: Date;
  revoked_at: Date | null;
}

/** One attempt of an endpoint's delivery log, with the response excerpt /v1 does not show. */
export interface EndpointAttemptRow {
  id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_excerpt: string | null;
  delivery_status: string;
  created_at: Date;
}

export interface UsageRow {
  day: string;
  channel: string;
  status: string;
  messages: number;
  cost_units: number;
}

/** Calls placed per UTC day and final status, with their answered time (docs/console.md#pages). */
export interface CallUsageRow {
  day: string;
  status: string;
  calls: number;
  /** From answer to end, summed over the calls. */
  seconds: number;
  /** Each answered call rounded up to a whole minute, as carriers bill voice, then summed. */
  minutes: number;
}

/**
 * The console's account-scoped reads and writes that the /v1 API has no route for (docs/console.md#the-console-api):
 * every query takes the account id, so a console call never reaches another account's rows.
 */
export function createConsoleReadsRepository(db: Queryable) {
  return {
    async listApiKeys(accountId: string): Promise<ApiKeyListing[]> {
      const { rows } = await db.query<ApiKeyListing>(
        `SELECT id, display_prefix, mode, scopes, rate_limit_per_second, created_at, revoked_at
         FROM api_keys WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT 200`,
        [accountId],
      );
      return rows;
    },
    async revokeApiKey(accountId: string, id: string): Promise<boolean> {
      const { rowCount } = await db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL', [id, accountId]);
      return (rowCount ?? 0) > 0;
    },
    async removeNumber(accountId: string, id: string): Promise<boolean> {
      const { rowCount } = await db.query('DELETE FROM numbers WHERE id = $1 AND account_id = $2', [id, accountId]);
      return (rowCount ?? 0) > 0;
    },
    /** Turns an endpoint of the account off (reason `console`) or back on, which also forgets its run of failures. */
    async setEndpointEnabled(accountId: string, id: string, enabled: boolean, at: Date): Promise<boolean> {
      const { rowCount } = await db.query(
        enabled
          ? 'UPDATE webhook_endpoints SET enabled = true, disabled_reason = NULL, disabled_at = NULL, failing_since = NULL, updated_at = $3 WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL'
          : "UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'disabled in the console', disabled_at = $3, updated_at = $3 WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL",
        [id, accountId, at],
      );
      return (rowCount ?? 0) > 0;
    },
    /** The newest attempts to an endpoint of the account; an endpoint of another account has none. */
    async endpointAttempts(accountId: string, endpointId: string, limit: number): Promise<EndpointAttemptRow[]> {
      const { rows } = await db.query<EndpointAttemptRow>(
        `SELECT a.id, d.event_id, e.type AS event_type, a.attempt_no AS attempt, a.status_code, a.latency_ms, a.error,
                a.response_excerpt, d.status AS delivery_status, a.created_at
         FROM webhook_attempts a
         JOIN webhook_endpoints w ON w.id = a.endpoint_id AND w.account_id = $1
         JOIN webhook_deliveries d ON d.id = a.delivery_id JOIN events e ON e.id = d.event_id
         WHERE a.endpoint_id = $2 ORDER BY a.id DESC LIMIT $3`,
        [accountId, endpointId, limit],
      );
      return rows;
    },
    /**
     * A `webhook.test` event for one endpoint of the account (the console's "send test event"); fan-out sends it to
     * that endpoint only. Null when the endpoint is not the account's.
     */
    async insertEndpointTestEvent(accountId: string, endpointId: string, at: Date): Promise<{ id: string } | null> {
      const id = newId('evt');
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO events (id, account_id, type, resource_type, resource_id, sequence, data, created_at)
         SELECT $1, w.account_id, 'webhook.test', 'webhook_endpoint', w.id, NULL,
                json_build_object('endpoint_id', w.id, 'url', w.url, 'test', true), $4
         FROM webhook_endpoints w WHERE w.id = $2 AND w.account_id = $3 AND w.deleted_at IS NULL
         RETURNING id`,
        [id, endpointId, accountId, at],
      );
      return rows[0] ? { id } : null;
    },
    /** Windows whose 24 h have not run out (docs/chat.md), newest first. */
    async openCustomerWindows(accountId: string, now: Date, windowMs = 24 * 3_600_000) {
      const { rows } = await db.query<{ sender: string; customer: string; last_inbound_at: Date }>(
        `SELECT sender, customer, last_inbound_at FROM customer_windows
         WHERE account_id = $1 AND last_inbound_at > $2 ORDER BY last_inbound_at DESC LIMIT 200`,
        [accountId, new Date(now.getTime() - windowMs)],
      );
      return rows.map((r) => ({ ...r, closes_at: new Date(r.last_inbound_at.getTime() + windowMs) }));
    },
    /** Messages per UTC day, channel (the one used, else the requested one) and status, with their cost units. */
    async usage(accountId: string, since: Date): Promise<UsageRow[]> {
      const { rows } = await db.query<UsageRow>(
        `SELECT to_char(date_trunc('day', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day,
                COALESCE(channel_used, channel) AS channel, status,
                count(*)::int AS messages, COALESCE(sum(cost_units), 0)::int AS cost_units
         FROM messages WHERE account_id = $1 AND created_at >= $2
         GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
        [accountId, since],
      );
      return rows;
    },

    async callUsage(accountId: string, since: Date): Promise<CallUsageRow[]> {
      const { rows } = await db.query<CallUsageRow>(
        `SELECT to_char(date_trunc('day', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day, status, count(*)::int AS calls,
                COALESCE(sum(round(extract(epoch FROM ended_at - answered_at))), 0)::int AS seconds,
                COALESCE(sum(ceil(round(extract(epoch FROM ended_at - answered_at)) / 60)), 0)::int AS minutes
         FROM calls WHERE account_id = $1 AND created_at >= $2
         GROUP BY 1, 2 ORDER BY 1, 2`,
        [accountId, since],
      );
      return rows;
    },
  };
}
export type ConsoleReadsRepository = ReturnType<typeof createConsoleReadsRepository>;
