import type { JobsOptions } from 'bullmq';

/**
 * Defaults for every job: retries with exponential backoff for transient failures, and completed or
 * failed jobs kept by count (never `true`) so that failures stay available to inspect.
 */
export function defaultJobOptions({ attempts = 8, backoffMs = 1_000 } = {}): JobsOptions {
  return {
    attempts,
    backoff: { type: 'exponential', delay: backoffMs },
    removeOnComplete: { count: 10_000 },
    removeOnFail: { count: 50_000 },
  };
}
