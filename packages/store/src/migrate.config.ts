import { EnvReader, type Env } from '@switchboard/runtime';

/** What the standalone migration needs: the store and the log level (docs/configuration.md, "Shared"). */
export interface MigrateConfig {
  databaseUrl: string;
  logLevel: string;
}

export function loadMigrateConfig(env: Env = process.env): Readonly<MigrateConfig> {
  const r = new EnvReader(env);
  return r.finish('migrate', {
    databaseUrl: r.string('DATABASE_URL'),
    logLevel: r.string('LOG_LEVEL', 'info'),
  });
}
