import { randomBytes } from 'node:crypto';
import { newId } from '@switchboard/domain';
import type { Queryable } from '../db';
import type { SecretCipher } from '../secret-cipher';

export interface Account {
  id: string;
  name: string;
  /** In clear here; sealed in the store (docs/webhooks.md, "Secrets at rest"). */
  callback_secret: string;
  created_at: Date;
}

/** Standard Webhooks secret: `whsec_` + base64 of 32 random bytes (docs/webhooks.md#envelope-and-headers). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export const callbackSecretLocation = (accountId: string) => ({ table: 'accounts', column: 'callback_secret', rowId: accountId });

export function createAccountsRepository(db: Queryable, secrets: SecretCipher) {
  const opened = (row: Account): Account => ({ ...row, callback_secret: secrets.open(row.callback_secret, callbackSecretLocation(row.id)) });
  return {
    /** Finds the account by name or creates it; the CLI's `--account <name>` semantics (docs/authentication.md#the-cli). */
    async ensure(name: string): Promise<Account> {
      const id = newId('acc');
      await db.query('INSERT INTO accounts (id, name, callback_secret) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING', [
        id,
        name,
        secrets.seal(newWebhookSecret(), callbackSecretLocation(id)),
      ]);
      const { rows } = await db.query<Account>('SELECT * FROM accounts WHERE name = $1', [name]);
      return opened(rows[0]);
    },
    async findById(id: string): Promise<Account | null> {
      const { rows } = await db.query<Account>('SELECT * FROM accounts WHERE id = $1', [id]);
      return rows[0] ? opened(rows[0]) : null;
    },
  };
}
export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
