import type { Logger } from '@switchboard/logger';

export interface ShutdownStep {
  name: string;
  /** May return a promise, which is awaited. */
  run: () => unknown;
}

export interface ShutdownOptions {
  /**
   * A shutdown still running after this long exits 1. Kept under Kubernetes' default 30 s grace period
   * so that the process ends on its own terms rather than by SIGKILL. @defaultValue 20000
   */
  timeoutMs?: number;
}

/**
 * Graceful shutdown in the STYLE order: the caller lists steps (stop HTTP, close workers so active
 * jobs finish, close queues/Redis/database); each is logged, a failing step does not block the rest.
 * SIGTERM and SIGINT end with exit code 0 once every step has run (see docs/architecture.md, shutdown).
 */
export function installShutdown(logger: Logger, steps: ShutdownStep[], { timeoutMs = 20_000 }: ShutdownOptions = {}): () => Promise<void> {
  let shuttingDown: Promise<void> | null = null;
  const shutdown = (reason: string): Promise<void> => {
    if (shuttingDown) return shuttingDown;
    shuttingDown = (async () => {
      logger.info('shutdown started', { reason });
      const timer = setTimeout(() => {
        logger.error('shutdown timed out; exiting', { timeout_ms: timeoutMs });
        process.exit(1);
      }, timeoutMs);
      timer.unref();
      for (const step of steps) {
        try {
          await step.run();
          logger.info('shutdown step done', { step: step.name });
        } catch (error) {
          logger.error('shutdown step failed', { step: step.name, error: (error as Error).message });
        }
      }
      logger.info('shutdown complete');
    })();
    return shuttingDown;
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM').then(() => process.exit(0)));
  process.once('SIGINT', () => void shutdown('SIGINT').then(() => process.exit(0)));
  process.on('unhandledRejection', (reason) => {
    logger.error('unhandled rejection', { error: reason instanceof Error ? reason.stack : String(reason) });
  });
  process.on('uncaughtException', (error) => {
    logger.error('uncaught exception; shutting down', { error: error.stack });
    void shutdown('uncaughtException').then(() => process.exit(1));
  });
  return () => shutdown('requested');
}
