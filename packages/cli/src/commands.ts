import { e164Problem, isScope } from '@switchboard/domain';
import { CONSOLE_ROLES, issueConsoleSignInLink, type ConsoleRole } from '@switchboard/store';
import {
  createAccountsRepository,
  createApiKeysRepository,
  createNumbersRepository,
  migrate,
  resealSecrets,
  type Db,
  type SecretCipher,
} from '@switchboard/store';
import { UsageError, type CommandSpec } from './args';

export { UsageError };

/** A command line that parseCommandLine accepted: its command, positionals and flags. */
export interface CommandInvocation {
  command: CommandSpec;
  positionals: string[];
  options: Record<string, string | boolean | undefined>;
}

const CHANNELS = ['chat', 'sms', 'rcs', 'voice'];

function requiredOption(args: CommandInvocation, name: string): string {
  const value = args.options[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} <value> is required`, 'missing_flag');
  return value;
}

function list(value: string | boolean | undefined, fallback: string[]): string[] {
  return typeof value === 'string'
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : fallback;
}

export async function runCommand(db: Db, args: CommandInvocation, secrets: SecretCipher, consoleBaseUrl?: string): Promise<unknown> {
  const { group, action } = args.command;
  const rest = args.positionals;
  await migrate(db);
  // As the services do at start-up: every stored secret is sealed under the active key before one is read.
  const sealing = await resealSecrets(db, secrets);
  if (group === 'keys' && action === 'create') {
    if (args.options.test && args.options.live) throw new UsageError('--test and --live exclude each other', 'conflicting_flags');
    const account = await createAccountsRepository(db, secrets).ensure(requiredOption(args, 'account'));
    const scopes = list(args.options.scopes, ['*']);
    const badScope = scopes.find((s) => !isScope(s));
    if (badScope) throw new UsageError(`unknown scope "${badScope}"`, 'invalid_value');
    const rate = args.options['rate-limit'];
    const rateLimitPerSecond = typeof rate === 'string' ? Number(rate) : undefined;
    if (rateLimitPerSecond !== undefined && (!Number.isInteger(rateLimitPerSecond) || rateLimitPerSecond < 1)) {
      throw new UsageError('--rate-limit takes a whole number of requests per second', 'invalid_value');
    }
    const created = await createApiKeysRepository(db).create({
      accountId: account.id,
      mode: args.options.test ? 'test' : 'live',
      scopes,
      rateLimitPerSecond,
    });
    return { id: created.id, key: created.key, account_id: account.id, scopes };
  }
  if (group === 'keys' && action === 'revoke') {
    const keyId = rest[0];
    if (!keyId) throw new UsageError('usage: switchboard keys revoke <key_id>', 'missing_argument');
    const revoked = await createApiKeysRepository(db).revoke(keyId);
    if (!revoked) throw new UsageError(`no active key ${keyId}`, 'key_not_found');
    return { id: keyId, revoked: true };
  }
  if (group === 'numbers' && action === 'add') {
    const e164 = rest[0];
    if (!e164) throw new UsageError('usage: switchboard numbers add --account <name> <E.164>', 'missing_argument');
    const problem = e164Problem(e164);
    if (problem) throw new UsageError(`"${e164}" ${problem}`, 'invalid_number');
    const channels = list(args.options.channels, CHANNELS);
    const badChannel = channels.find((c) => !CHANNELS.includes(c));
    if (badChannel) throw new UsageError(`unknown channel "${badChannel}"`, 'invalid_value');
    const account = await createAccountsRepository(db, secrets).ensure(requiredOption(args, 'account'));
    const number = await createNumbersRepository(db).add({ accountId: account.id, e164, channels });
    return { id: number.id, account_id: account.id, e164: number.e164, channels: number.channels };
  }
  if (group === 'users' && action === 'create') {
    // A console user and a one-time sign-in link (docs/console.md#sign-in).
    const email = requiredOption(args, 'email');
    if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254) throw new UsageError(`"${email}" is not an email address`, 'invalid_value');
    const role = requiredOption(args, 'role');
    if (!(CONSOLE_ROLES as readonly string[]).includes(role)) throw new UsageError(`--role must be one of ${CONSOLE_ROLES.join(', ')}`, 'invalid_value');
    const baseUrl = typeof args.options['base-url'] === 'string' ? args.options['base-url'] : consoleBaseUrl;
    if (!baseUrl) throw new UsageError('--base-url <gateway URL> is required when no local stack runs', 'missing_flag');
    const { token: _token, ...link } = await issueConsoleSignInLink(db, secrets, {
      account: requiredOption(args, 'account'),
      email,
      role: role as ConsoleRole,
      baseUrl,
    });
    return link;
  }
  if (group === 'secrets' && action === 'reencrypt') {
    // Reports the re-sealing above: plaintext from before encryption, values under older keys (docs/webhooks.md).
    return { active_kid: secrets.activeKid, ...sealing };
  }
  throw new UsageError(`unknown command "${group} ${action}"; switchboard --help lists every command`, 'unknown_command');
}
