import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from './embedded-postgres';

export const LOCAL_POSTGRES_URL = 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

export interface PostgresForTests {
  /** Base URL; tests create their own databases on it (createTestDatabase). */
  url: string;
  /** Stops and removes the embedded server; leaves a server we did not start alone. */
  stop(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * What TEST_DATABASE_URL says to ask `npm test` for the embedded PostgreSQL even when 127.0.0.1:5432 answers: one
 * variable names the tests' server, whichever way it is found (docs/configuration.md#npm-start-and-the-test-tooling).
 */
export const EMBEDDED_TEST_DATABASE = 'embedded';

/**
 * The PostgreSQL on 127.0.0.1:5432 when it answers; otherwise the embedded one with its cluster in a
 * temporary folder, so a fresh machine needs nothing installed. TEST_DATABASE_URL=embedded skips the probe.
 */
export async function ensurePostgres(env: NodeJS.ProcessEnv = process.env): Promise<PostgresForTests> {
  if (env.TEST_DATABASE_URL !== EMBEDDED_TEST_DATABASE && (await answers(LOCAL_POSTGRES_URL)))
    return { url: LOCAL_POSTGRES_URL, stop: () => Promise.resolve() };
  const home = mkdtempSync(join(tmpdir(), 'sb-postgres-'));
  // mkdtemp makes it 0700; the server runs as the postgres user when we are root and must reach its cluster.
  chmodSync(home, 0o755);
  const server = await startEmbeddedPostgres({ dataDir: join(home, 'pgdata') }).catch((error: unknown) => {
    rmSync(home, { recursive: true, force: true });
    throw error;
  });
  return {
    url: server.url,
    stop: async () => {
      await server.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
