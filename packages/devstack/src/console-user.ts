import { createDb, issueConsoleSignInLink, type ConsoleRole } from '@switchboard/store';
import { testSecretCipher } from './secrets-keys';

/** A console user with a one-time sign-in link, as `switchboard users create` makes: for `npm start` and tests. */
export async function createConsoleUser(
  databaseUrl: string,
  opts: { account: string; email: string; role: ConsoleRole; baseUrl: string; secretsKeys?: string },
) {
  const db = createDb({ url: databaseUrl, poolSize: 1 });
  try {
    return await issueConsoleSignInLink(db, testSecretCipher(databaseUrl, opts.secretsKeys), opts);
  } finally {
    await db.close();
  }
}
