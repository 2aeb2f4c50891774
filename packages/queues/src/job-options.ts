import type { JobsOptions } from 'bullmq';

/**
 * Finished jobs are kept by count, never removed at once (`true`), so that a failure stays available to
 * inspect; the counts bound what Redis holds.
 */
export const JOB_RETENTION = {
  removeOnComplete: { count: 10_000 },
  removeOnFail: { count: 50_000 },
} as const satisfies JobsOptions;

/** Retries of a transient failure, each wait twice the one before. */
export function exponentialRetry(attempts: number, firstDelayMs: number) {
  return { attempts, backoff: { type: 'exponential', delay: firstDelayMs } } as const satisfies JobsOptions;
}
