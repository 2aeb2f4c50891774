import type { EnvReader } from './env';

/**
 * LOCK_DURATION_MS: how long a worker's hold on an active job lasts unrenewed, so how soon a job whose worker crashed
 * runs again (docs/operations.md). BullMQ's stalled check runs as often as the lock lasts, its own default pairing:
 * more often finds nothing more, since a lock expires only once per duration. @defaultValue 30 s, BullMQ's
 */
export function readJobLock(r: EnvReader): { lockDurationMs: number; stalledIntervalMs: number } {
  const lockDurationMs = r.int('LOCK_DURATION_MS', 30_000, { min: 100 });
  return { lockDurationMs, stalledIntervalMs: lockDurationMs };
}
