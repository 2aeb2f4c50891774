import { createAccountsRepository, createApiKeysRepository, createDb, createNumbersRepository } from '@switchboard/store';
import { testSecretCipher } from './secrets-keys';

export interface AccountKeyOptions {
  account: string;
  mode?: 'live' | 'test';
  scopes?: string[];
  rateLimitPerSecond?: number;
  numbers?: Array<{ e164: string; channels: string[] }>;
  /** The stack's SECRETS_ENCRYPTION_KEYS. @defaultValue testSecretsKeys(databaseUrl), as startStack */
  secretsKeys?: string;
}

/** Creates (or reuses) an account, provisions numbers and issues a key: what the CLI does, for tests. */
export async function createAccountKey(databaseUrl: string, opts: AccountKeyOptions) {
  const db = createDb({ url: databaseUrl, poolSize: 1 });
  try {
    const account = await createAccountsRepository(db, testSecretCipher(databaseUrl, opts.secretsKeys)).ensure(opts.account);
    for (const n of opts.numbers ?? []) await createNumbersRepository(db).add({ accountId: account.id, e164: n.e164, channels: n.channels });
    const created = await createApiKeysRepository(db).create({
      accountId: account.id,
      mode: opts.mode ?? 'test',
      scopes: opts.scopes ?? ['*'],
      rateLimitPerSecond: opts.rateLimitPerSecond,
    });
    return { key: created.key, keyId: created.id, accountId: account.id, callbackSecret: account.callback_secret };
  } finally {
    await db.close();
  }
}
