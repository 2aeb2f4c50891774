import { ApiError } from '@switchboard/domain';
import { createDb, createSecretCipher, type SecretCipher } from '@switchboard/store';
import { parseCommandLine, UsageError, type ParsedCommandLine } from './args';
import { runCommand } from './commands';
import { loadCliConfig } from './config';
import { localBaseUrl } from './connection';

/** One JSON line on stderr; refusals of the domain (a 4xx in the API) carry their stable `code` too. */
function reportError(error: unknown): void {
  const code = error instanceof ApiError || error instanceof UsageError ? { code: error.code } : {};
  process.stderr.write(`${JSON.stringify({ error: (error as Error).message, ...code })}\n`);
}

async function main(): Promise<number> {
  let args: ParsedCommandLine;
  try {
    args = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    reportError(error);
    return 2;
  }
  if (args.kind === 'help') {
    process.stdout.write(args.text);
    return 0;
  }
  let url: string;
  let secrets: SecretCipher;
  try {
    const config = loadCliConfig();
    url = config.databaseUrl;
    secrets = createSecretCipher(config.secretsKeys);
  } catch (error) {
    reportError(error);
    return 2;
  }
  const db = createDb({ url, poolSize: 1 });
  try {
    const result = await runCommand(db, args, secrets, localBaseUrl(process.env, process.cwd()));
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } catch (error) {
    reportError(error);
    // Usage errors and refusals (a number another account holds) are the caller's to fix: exit 2.
    return error instanceof UsageError || (error instanceof ApiError && error.status < 500) ? 2 : 1;
  } finally {
    await db.close();
  }
}

void main().then((code) => process.exit(code));
