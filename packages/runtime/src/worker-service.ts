import { getLogger, type LogFormat, type Logger } from '@switchboard/logger';
import { startHealthServer } from './health-server';
import type { MetricsRegistry } from './metrics';
import { installShutdown, type ShutdownStep } from './shutdown';

export interface WorkerServiceParts {
  /** `/healthz`, `/readyz` and `/metrics`: a worker has no other API. */
  health: { port: number; host?: string; metrics?: MetricsRegistry; ready: () => Promise<boolean> };
  /** In the STYLE order: workers (active jobs finish), then queues, Redis and the database. */
  shutdown: ShutdownStep[];
  /** Fields of the `ready` log line. */
  readyFields?: Record<string, unknown>;
}

export interface WorkerServiceSpec<Config extends { logLevel: string; logFormat?: LogFormat }> {
  service: string;
  loadConfig: () => Readonly<Config>;
  /** The effective configuration without secrets, logged once at start. */
  describeConfig: (config: Readonly<Config>) => Record<string, unknown>;
  /** Builds the dependencies and the workers. */
  start: (context: { config: Readonly<Config>; logger: Logger }) => Promise<WorkerServiceParts>;
}

/**
 * The part every worker's `main.ts` shares: configuration and its log line, the logger, the health
 * server (closed first on shutdown, so the orchestrator stops routing before the workers drain), the
 * shutdown handlers, and a clear exit when start-up fails.
 */
export function runWorkerService<Config extends { logLevel: string; logFormat?: LogFormat }>(spec: WorkerServiceSpec<Config>): void {
  const main = async (): Promise<void> => {
    const config = spec.loadConfig();
    const logger = getLogger({ service: spec.service, level: config.logLevel, format: config.logFormat });
    logger.info('configuration', spec.describeConfig(config));
    const parts = await spec.start({ config, logger });
    const health = await startHealthServer(parts.health);
    installShutdown(logger, [{ name: 'health server', run: () => new Promise((resolve) => health.close(() => resolve(undefined))) }, ...parts.shutdown]);
    logger.info(`${spec.service} ready`, { health_port: parts.health.port, ...parts.readyFields });
  };
  main().catch((error: unknown) => {
    process.stderr.write(`${spec.service} failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
