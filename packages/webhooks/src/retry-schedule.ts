/**
 * Delivery retry timing (docs/webhooks.md): an explicit schedule, jitter, and `Retry-After` clamped so that
 * a receiver cannot park a delivery for longer than twice what the schedule would wait.
 */

/** Immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: the svix schedule the contract names. */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** Parses `0,5000,300000`; returns null when any entry is not a non-negative integer. */
export function parseRetrySchedule(text: string): number[] | null {
  const parts = text.split(',').map((s) => s.trim());
  if (parts.length === 0 || parts.some((p) => !/^\d+$/.test(p))) return null;
  return parts.map(Number);
}

/** Seconds or an HTTP date (RFC 9110 §10.2.3), as milliseconds from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** ±20 % on each scheduled wait, so endpoints that failed together are not retried together (docs/webhooks.md#delivery-retries-and-dead-letters). */
export const RETRY_JITTER_RATIO = 0.2;

export interface RetryInput {
  schedule: readonly number[];
  /** Attempts already made, including the one that just failed (1 after the first failure). */
  attemptsMade: number;
  /** Fraction of the delay added or removed at random. @defaultValue {@link RETRY_JITTER_RATIO} */
  jitterRatio?: number;
  retryAfterMs?: number | null;
  random?: () => number;
}

/**
 * The wait before the next attempt, or null when the schedule is exhausted (dead letter).
 * `schedule[n]` is the wait before attempt n + 1, so the schedule's length is the number of attempts.
 */
export function nextRetryDelay({
  schedule,
  attemptsMade,
  jitterRatio = RETRY_JITTER_RATIO,
  retryAfterMs = null,
  random = Math.random,
}: RetryInput): number | null {
  if (attemptsMade >= schedule.length) return null;
  const scheduled = schedule[attemptsMade];
  if (retryAfterMs !== null && retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), 2 * scheduled);
  // Jitter spreads a burst of failures (an endpoint down for everyone) so retries do not arrive together.
  const jitter = scheduled * jitterRatio * (2 * random() - 1);
  return Math.max(0, Math.round(scheduled + jitter));
}
