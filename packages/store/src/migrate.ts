import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '@switchboard/logger';
import { createDb, type Db, type DbOptions } from './db';

/** Works from both `src` (tests) and `dist` (services): migrations live beside them in the package. */
export const MIGRATIONS_DIR = join(__dirname, '..', 'migrations');

/**
 * Applies pending SQL migrations in file-name order, all in one transaction under an advisory lock,
 * so that several services starting at once apply each file exactly once. `through` stops after that file
 * (a test that builds an older schema, fills it and then applies the rest).
 */
export async function migrate(db: Db, dir = MIGRATIONS_DIR, through?: string): Promise<string[]> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sql') && (through === undefined || f <= through))
    .sort();
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(727274)');
    await tx.query('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const { rows } = await tx.query<{ name: string }>('SELECT name FROM schema_migrations');
    const applied = new Set(rows.map((r) => r.name));
    const pending = files.filter((f) => !applied.has(f));
    for (const file of pending) {
      await tx.query(readFileSync(join(dir, file), 'utf8'));
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
    }
    return pending;
  });
}

/** A service's store: the pool, with pending migrations applied (and logged) before any other query. */
export async function openMigratedDb(options: DbOptions, logger: Pick<Logger, 'info'>): Promise<Db> {
  const db = createDb(options);
  const applied = await migrate(db);
  if (applied.length > 0) logger.info('migrations applied', { migrations: applied });
  return db;
}
