import { randomBytes } from 'node:crypto';
import { newId } from '@switchboard/domain';
import type { Queryable } from '../db';

export interface Account {
  id: string;
  name: string;
  callback_secret: string;
  created_at: Date;
}

/** Standard Webhooks secret: `whsec_` + base64 of 32 random bytes (docs/webhooks.md#envelope-and-headers). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export function createAccountsRepository(db: Queryable) {
  return {
    /** Finds the account by name or creates it; the CLI's `--account <name>` semantics (docs/authentication.md#the-cli). */
    async ensure(name: string): Promise<Account> {
      await db.query('INSERT INTO accounts (id, name, callback_secret) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING', [
        newId('acc'),
        name,
        newWebhookSecret(),
      ]);
      const { rows } = await db.query<Account>('SELECT * FROM accounts WHERE name = $1', [name]);
      return rows[0];
    },
    async findById(id: string): Promise<Account | null> {
      const { rows } = await db.query<Account>('SELECT * FROM accounts WHERE id = $1', [id]);
      return rows[0] ?? null;
    },
  };
}
export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
