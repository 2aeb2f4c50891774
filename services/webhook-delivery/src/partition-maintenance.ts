import type { Logger } from '@switchboard/logger';
import { maintainMonthPartitions, type Db } from '@switchboard/store';

/**
 * Hourly: a month's partitions are made months early (the store's MONTHS_AHEAD), so the run only has to happen at all in
 * each month; an hour also lets a drop that gave up on its lock come back soon.
 */
export const PARTITION_MAINTENANCE_INTERVAL_MS = 3_600_000;

export interface PartitionMaintenanceOptions {
  db: Db;
  /** RETENTION_MONTHS; undefined keeps every month. */
  retentionMonths: number | undefined;
  intervalMs: number;
  logger: Logger;
}

/**
 * Runs the month partitions' maintenance (docs/storage-layout.md#time-partitioned-tables) at start-up and then on a
 * timer. Every webhook-delivery process runs it: the store's advisory lock makes a second run at the same time wait
 * and then find nothing to do.
 */
export function createPartitionMaintenance(opts: PartitionMaintenanceOptions) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;

  const tick = () => {
    running = maintainMonthPartitions(opts.db, { retentionMonths: opts.retentionMonths })
      .then(({ created, dropped }) => {
        if (created.length > 0 || dropped.length > 0) opts.logger.info('month partitions maintained', { created, dropped });
      })
      .catch((error: Error) => {
        opts.logger.warn('month partition maintenance failed; retrying next interval', { error: error.message });
      })
      .finally(() => {
        running = null;
        if (!stopped) timer = setTimeout(tick, opts.intervalMs);
      });
  };

  return {
    start(): void {
      stopped = false;
      tick();
    },
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
