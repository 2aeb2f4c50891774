import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDb, migrate, MIGRATIONS_DIR } from '@switchboard/store';
import { EMBEDDED_TEST_DATABASE, LOCAL_POSTGRES_URL } from './test-postgres';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export interface TestDatabaseOptions {
  /** The last migration file to apply, for a test of a later migration on a database that holds rows. @defaultValue every one */
  throughMigration?: string;
}

/** A fresh database with every migration applied, so tests never share rows. */
export async function createTestDatabase(
  baseUrl = process.env.TEST_DATABASE_URL ?? LOCAL_POSTGRES_URL,
  options: TestDatabaseOptions = {},
): Promise<TestDatabase> {
  if (baseUrl === EMBEDDED_TEST_DATABASE) {
    throw new Error('TEST_DATABASE_URL=embedded asks npm test to start the embedded PostgreSQL; a test run without it needs a postgres:// URL');
  }
  const name = `sb_test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = withDatabase(baseUrl, name);
  const db = createDb({ url, poolSize: 1 });
  await migrate(db, MIGRATIONS_DIR, options.throughMigration);
  await db.close();
  return {
    url,
    drop: async () => {
      const c = new Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
