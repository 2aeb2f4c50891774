import { chooseLogFormat, type LogFormat } from '@switchboard/logger';
import type { EnvReader } from './env';

/** What every worker and the gateway read alike: the store, Redis, the queue prefix, logging. */
export interface CommonConfig {
  databaseUrl: string;
  redisUrl: string;
  /** BullMQ key prefix; tests give each run its own. */
  queuePrefix: string;
  logLevel: string;
  /** LOG_FORMAT json or pretty; unset: pretty when stdout is a TTY, else json (docs/configuration.md#logs). */
  logFormat: LogFormat;
  dbPoolSize: number;
  /**
   * Whether a service applies migrations at start-up. Deployments that run the standalone migration first
   * (`node packages/store/dist/migrate.main.js`, deploy/README.md) set `MIGRATE_ON_START=false`.
   * @defaultValue true
   */
  migrateOnStart: boolean;
}

/** Reads the shared variables of docs/configuration.md ("Shared") with their one set of defaults. */
export function readCommonConfig(r: EnvReader): CommonConfig {
  return {
    databaseUrl: r.string('DATABASE_URL'),
    redisUrl: r.string('REDIS_URL', 'redis://127.0.0.1:6379'),
    queuePrefix: r.string('QUEUE_PREFIX', 'sb'),
    logLevel: r.string('LOG_LEVEL', 'info'),
    logFormat: r.optionalString('LOG_FORMAT')
      ? r.parsed('LOG_FORMAT', (text) => chooseLogFormat(text, false), 'json or pretty')
      : chooseLogFormat(undefined, process.stdout.isTTY === true),
    dbPoolSize: r.int('DB_POOL_SIZE', 10, { min: 1, max: 1_000 }),
    migrateOnStart: r.bool('MIGRATE_ON_START', true),
  };
}

/** A connection URL fit for a log line: its credentials (user and password) become `***`. */
export function redactUrlCredentials(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}

/** The shared values for a start-up log: the URLs without their credentials. */
export function describeCommonConfig(c: CommonConfig): CommonConfig {
  return { ...c, databaseUrl: redactUrlCredentials(c.databaseUrl), redisUrl: redactUrlCredentials(c.redisUrl) };
}
