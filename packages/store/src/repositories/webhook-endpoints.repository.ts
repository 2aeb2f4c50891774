import { newId } from '@switchboard/domain';
import type { Queryable } from '../db';
import type { SecretCipher } from '../secret-cipher';
import { newWebhookSecret } from './accounts.repository';

export interface WebhookEndpointRow {
  id: string;
  account_id: string;
  url: string;
  description: string | null;
  events: string[];
  /** In clear here, like `previous_secret`; both are sealed in the store (docs/webhooks.md, "Secrets at rest"). */
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  enabled: boolean;
  disabled_reason: string | null;
  disabled_at: Date | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

/** An endpoint as the API lists it: what it reads never touches the secrets. */
export type WebhookEndpoint = Omit<WebhookEndpointRow, 'secret' | 'previous_secret'>;

// Every column but the sealed secrets, for the reads that show no secret.
const ENDPOINT_COLUMNS = `id, account_id, url, description, events, previous_secret_expires_at, enabled, disabled_reason, disabled_at,
  failing_since, created_at, updated_at, deleted_at`;

/** The secrets that sign a delivery now: the current one, plus the previous one while its overlap lasts. */
export function signingSecrets(endpoint: Pick<WebhookEndpointRow, 'secret' | 'previous_secret' | 'previous_secret_expires_at'>, now: Date): string[] {
  const previousValid = endpoint.previous_secret && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > now;
  return previousValid ? [endpoint.secret, endpoint.previous_secret as string] : [endpoint.secret];
}

export const endpointSecretLocation = (endpointId: string, column: 'secret' | 'previous_secret') => ({ table: 'webhook_endpoints', column, rowId: endpointId });

/** Opens the sealed secrets of endpoint columns as read from the store. */
export function openEndpointSecrets<T extends { secret: string; previous_secret: string | null }>(secrets: SecretCipher, endpointId: string, row: T): T {
  return {
    ...row,
    secret: secrets.open(row.secret, endpointSecretLocation(endpointId, 'secret')),
    previous_secret: row.previous_secret === null ? null : secrets.open(row.previous_secret, endpointSecretLocation(endpointId, 'previous_secret')),
  };
}

/** How often a rotation retries when another rotation of the same endpoint committed in between. */
const ROTATION_ATTEMPTS = 5;

export function createWebhookEndpointsRepository(db: Queryable, secrets: SecretCipher) {
  const opened = (row: WebhookEndpointRow) => openEndpointSecrets(secrets, row.id, row);
  return {
    async create(input: { accountId: string; url: string; events: string[]; description?: string; at: Date }): Promise<WebhookEndpointRow> {
      const id = newId('whk');
      const { rows } = await db.query<WebhookEndpointRow>(
        `INSERT INTO webhook_endpoints (id, account_id, url, description, events, secret, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING *`,
        [
          id,
          input.accountId,
          input.url,
          input.description ?? null,
          input.events,
          secrets.seal(newWebhookSecret(), endpointSecretLocation(id, 'secret')),
          input.at,
        ],
      );
      return opened(rows[0]);
    },

    /** Scoped to the account; deleted endpoints are gone for the API. */
    async findForAccount(accountId: string, id: string): Promise<WebhookEndpoint | null> {
      const { rows } = await db.query<WebhookEndpoint>(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL`,
        [id, accountId],
      );
      return rows[0] ?? null;
    },

    async findById(id: string): Promise<WebhookEndpointRow | null> {
      const { rows } = await db.query<WebhookEndpointRow>('SELECT * FROM webhook_endpoints WHERE id = $1', [id]);
      return rows[0] ? opened(rows[0]) : null;
    },

    async list(accountId: string, page: { beforeId?: string; limit: number }): Promise<WebhookEndpoint[]> {
      const { rows } = await db.query<WebhookEndpoint>(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE account_id = $1 AND deleted_at IS NULL AND ($2::text IS NULL OR id < $2)
         ORDER BY id DESC LIMIT $3`,
        [accountId, page.beforeId ?? null, page.limit],
      );
      return rows;
    },

    /** Soft delete: delivery and attempt rows keep pointing at it. */
    async delete(accountId: string, id: string, at: Date): Promise<boolean> {
      const { rowCount } = await db.query(
        `UPDATE webhook_endpoints SET deleted_at = $3, enabled = false, disabled_reason = 'deleted', updated_at = $3
         WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL`,
        [id, accountId, at],
      );
      return (rowCount ?? 0) > 0;
    },

    /**
     * The new secret signs at once; the old one keeps signing alongside it for `overlapMs`. The old
     * secret is re-sealed for its new column (a sealed value is bound to its column), so the update
     * only applies if the secret is still the one read; a concurrent rotation makes it read again.
     */
    async rotateSecret(accountId: string, id: string, at: Date, overlapMs: number): Promise<WebhookEndpointRow | null> {
      for (let attempt = 0; attempt < ROTATION_ATTEMPTS; attempt++) {
        const current = await db.query<{ secret: string }>('SELECT secret FROM webhook_endpoints WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL', [
          id,
          accountId,
        ]);
        const stored = current.rows[0]?.secret;
        if (stored === undefined) return null;
        const previous = secrets.open(stored, endpointSecretLocation(id, 'secret'));
        const { rows } = await db.query<WebhookEndpointRow>(
          `UPDATE webhook_endpoints SET previous_secret = $3, previous_secret_expires_at = $4, secret = $5, updated_at = $6
           WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL AND secret = $7 RETURNING *`,
          [
            id,
            accountId,
            secrets.seal(previous, endpointSecretLocation(id, 'previous_secret')),
            new Date(at.getTime() + overlapMs),
            secrets.seal(newWebhookSecret(), endpointSecretLocation(id, 'secret')),
            at,
            stored,
          ],
        );
        if (rows[0]) return opened(rows[0]);
      }
      throw new Error(`rotating the secret of ${id} kept racing with other rotations`);
    },

    /** Enabled endpoints of the account subscribed to `type` or to everything. */
    async subscribedTo(accountId: string, type: string): Promise<WebhookEndpointRow[]> {
      const { rows } = await db.query<WebhookEndpointRow>(
        `SELECT * FROM webhook_endpoints WHERE account_id = $1 AND enabled AND deleted_at IS NULL AND events && ARRAY[$2, '*']::text[]`,
        [accountId, type],
      );
      return rows.map(opened);
    },

    async disable(id: string, reason: string, at: Date): Promise<void> {
      await db.query('UPDATE webhook_endpoints SET enabled = false, disabled_reason = $2, disabled_at = $3, updated_at = $3 WHERE id = $1 AND enabled', [
        id,
        reason,
        at,
      ]);
    },

    /** Starts (or continues) the endpoint's run of failures; returns when that run began. */
    async recordFailure(id: string, at: Date): Promise<Date | null> {
      const { rows } = await db.query<{ failing_since: Date }>(
        'UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $2) WHERE id = $1 RETURNING failing_since',
        [id, at],
      );
      return rows[0]?.failing_since ?? null;
    },

    async recordSuccess(id: string): Promise<void> {
      await db.query('UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL', [id]);
    },
  };
}
export type WebhookEndpointsRepository = ReturnType<typeof createWebhookEndpointsRepository>;
