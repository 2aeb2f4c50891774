import type { Queryable } from '../db';

/** Per-account settings that need no secret (docs/routing.md#time-based-fallback). */
export interface AccountSettings {
  /** null: the service default. */
  fallback_timeout_seconds: number | null;
}

export function createAccountSettingsRepository(db: Queryable) {
  return {
    async find(accountId: string): Promise<AccountSettings | null> {
      const { rows } = await db.query<AccountSettings>('SELECT fallback_timeout_seconds FROM accounts WHERE id = $1', [accountId]);
      return rows[0] ?? null;
    },
    /** Writes only the fields given; answers the settings as stored afterwards. */
    async update(accountId: string, changes: Partial<AccountSettings>): Promise<AccountSettings | null> {
      if (changes.fallback_timeout_seconds === undefined) return this.find(accountId);
      const { rows } = await db.query<AccountSettings>('UPDATE accounts SET fallback_timeout_seconds = $2 WHERE id = $1 RETURNING fallback_timeout_seconds', [
        accountId,
        changes.fallback_timeout_seconds,
      ]);
      return rows[0] ?? null;
    },
  };
}
export type AccountSettingsRepository = ReturnType<typeof createAccountSettingsRepository>;
