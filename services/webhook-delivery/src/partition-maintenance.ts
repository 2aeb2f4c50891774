import type { Logger } from '@switchboard/logger';
import { createPeriodicTask, type PeriodicTask } from '@switchboard/runtime';
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
export function createPartitionMaintenance(opts: PartitionMaintenanceOptions): PeriodicTask {
  return createPeriodicTask(
    async () => {
      const { created, dropped } = await maintainMonthPartitions(opts.db, { retentionMonths: opts.retentionMonths });
      if (created.length > 0 || dropped.length > 0) opts.logger.info('month partitions maintained', { created, dropped });
    },
    {
      intervalMs: opts.intervalMs,
      onError: (error) => opts.logger.warn('month partition maintenance failed; retrying next interval', { error: error.message }),
    },
  );
}
