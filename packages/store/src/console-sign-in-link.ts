import { createAccountsRepository } from './repositories/accounts.repository';
import { createConsoleUsersRepository, type ConsoleRole } from './repositories/console-users.repository';
import type { Queryable } from './db';
import type { SecretCipher } from './secret-cipher';

/** How long a printed sign-in link stays valid (docs/console.md#sign-in). */
export const CONSOLE_SIGN_IN_LINK_TTL_MS = 24 * 3_600_000;

/**
 * Creates the account (by name) and the console user if needed, and issues a one-time sign-in link. The token
 * rides in the fragment, which browsers never send to a server, so it stays out of logs and Referer headers.
 */
export async function issueConsoleSignInLink(
  db: Queryable,
  secrets: SecretCipher,
  input: { account: string; email: string; role: ConsoleRole; baseUrl: string },
) {
  const account = await createAccountsRepository(db, secrets).ensure(input.account);
  const users = createConsoleUsersRepository(db);
  const user = await users.ensure({ accountId: account.id, email: input.email, role: input.role });
  const token = await users.issueSignInToken(user.id, CONSOLE_SIGN_IN_LINK_TTL_MS);
  return {
    id: user.id,
    account_id: account.id,
    email: user.email,
    role: user.role,
    sign_in_url: `${input.baseUrl.replace(/\/$/, '')}/console/welcome#token=${token}`,
    token,
  };
}
