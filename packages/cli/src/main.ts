import { createDb } from '@switchboard/store';
import { parseArgs } from './args';
import { runCommand, UsageError } from './commands';
import { resolveDatabaseUrl } from './connection';

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  let url: string;
  try {
    url = resolveDatabaseUrl(process.env, process.cwd());
  } catch (error) {
    process.stderr.write(`${JSON.stringify({ error: (error as Error).message })}\n`);
    return 2;
  }
  const db = createDb({ url, poolSize: 1 });
  try {
    const result = await runCommand(db, args);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`${JSON.stringify({ error: (error as Error).message })}\n`);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    await db.close();
  }
}

void main().then((code) => process.exit(code));
