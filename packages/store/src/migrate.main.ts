import { getLogger } from '@switchboard/logger';
import { createDb } from './db';
import { migrate } from './migrate';
import { loadMigrateConfig } from './migrate.config';

/**
 * One-shot schema migration, run before the services start: the Helm chart's pre-install/pre-upgrade
 * Job and docker-compose's `migrate` service (k8s/README.md). Exits 0 once every migration is applied.
 */
async function main(): Promise<void> {
  const config = loadMigrateConfig();
  const logger = getLogger({ service: 'migrate', level: config.logLevel });
  // No statement timeout: a migration that rewrites a large table may take longer than a request would.
  const db = createDb({ url: config.databaseUrl, poolSize: 1, statementTimeoutMs: 0 });
  try {
    const applied = await migrate(db);
    logger.info('migrations applied', { migrations: applied, count: applied.length });
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`migrate failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
