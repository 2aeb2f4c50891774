import type { QuietHours } from '@switchboard/domain';
import type { Queryable } from '../db';

/** The account's quiet hours (docs/routing.md#quiet-hours); a column of `accounts`, null when none are set. */
export function createAccountQuietHoursRepository(db: Queryable) {
  return {
    async find(accountId: string): Promise<QuietHours | null> {
      const { rows } = await db.query<{ quiet_hours: QuietHours | null }>('SELECT quiet_hours FROM accounts WHERE id = $1', [accountId]);
      return rows[0]?.quiet_hours ?? null;
    },
    /** False when the account does not exist. */
    async set(accountId: string, quietHours: QuietHours | null): Promise<boolean> {
      const { rowCount } = await db.query('UPDATE accounts SET quiet_hours = $2 WHERE id = $1', [accountId, quietHours === null ? null : JSON.stringify(quietHours)]);
      return (rowCount ?? 0) > 0;
    },
  };
}
export type AccountQuietHoursRepository = ReturnType<typeof createAccountQuietHoursRepository>;
