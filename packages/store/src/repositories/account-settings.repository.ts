import type { QuietHours } from '@switchboard/domain';
import type { Queryable } from '../db';

/**
 * Per-account settings that need no secret: the fallback timeout (docs/routing.md#time-based-fallback)
 * and quiet hours (docs/routing.md#quiet-hours), columns of `accounts`.
 */
export interface AccountSettings {
  /** null: the service default. */
  fallback_timeout_seconds: number | null;
  /** null: none. */
  quiet_hours: QuietHours | null;
}

const COLUMNS = 'fallback_timeout_seconds, quiet_hours';

export function createAccountSettingsRepository(db: Queryable) {
  return {
    async find(accountId: string): Promise<AccountSettings | null> {
      const { rows } = await db.query<AccountSettings>(`SELECT ${COLUMNS} FROM accounts WHERE id = $1`, [accountId]);
      return rows[0] ?? null;
    },
    /** Writes only the fields given; answers the settings as stored afterwards, null for an unknown account. */
    async update(accountId: string, changes: Partial<AccountSettings>): Promise<AccountSettings | null> {
      const { rows } = await db.query<AccountSettings>(
        `UPDATE accounts SET
           fallback_timeout_seconds = CASE WHEN $2 THEN $3::integer ELSE fallback_timeout_seconds END,
           quiet_hours = CASE WHEN $4 THEN $5::jsonb ELSE quiet_hours END
         WHERE id = $1 RETURNING ${COLUMNS}`,
        [
          accountId,
          changes.fallback_timeout_seconds !== undefined,
          changes.fallback_timeout_seconds ?? null,
          changes.quiet_hours !== undefined,
          changes.quiet_hours ? JSON.stringify(changes.quiet_hours) : null,
        ],
      );
      return rows[0] ?? null;
    },
  };
}
export type AccountSettingsRepository = ReturnType<typeof createAccountSettingsRepository>;
