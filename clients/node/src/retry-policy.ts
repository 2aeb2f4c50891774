/**
 * When to retry a request and how long to wait: exponential backoff with full jitter, a server's `Retry-After`
 * first (clients/README.md describes the policy, shared by the three SDKs).
 */
export interface RetryOptions {
  /** Tries in all, the first one included. @defaultValue 4 */
  maxAttempts?: number;
  /** Ceiling of the first backoff, in milliseconds; it doubles at each retry. @defaultValue 250 */
  baseDelayMs?: number;
  /** Largest backoff ceiling, in milliseconds. @defaultValue 8000 */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this is shortened to it, in milliseconds. @defaultValue 60000 */
  maxRetryAfterMs?: number;
}

export type ResolvedRetryOptions = Required<RetryOptions>;

export const DEFAULT_RETRY: ResolvedRetryOptions = Object.freeze({
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
});

// 408 and 5xx are transient; 429 means the request was not processed at all.
const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

export function resolveRetryOptions(options: RetryOptions = {}): ResolvedRetryOptions {
  const resolved = { ...DEFAULT_RETRY, ...stripUndefined(options) };
  if (!Number.isInteger(resolved.maxAttempts) || resolved.maxAttempts < 1) throw new RangeError('retry.maxAttempts must be an integer ≥ 1');
  for (const key of ['baseDelayMs', 'maxDelayMs', 'maxRetryAfterMs'] as const) {
    if (!Number.isFinite(resolved[key]) || resolved[key] < 0) throw new RangeError(`retry.${key} must be a number ≥ 0`);
  }
  return resolved;
}

/** Delay before retry number `retry` (1-based): uniform in [0, min(maxDelay, base · 2^(retry-1))]. */
export function backoffMs(policy: ResolvedRetryOptions, retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return ceiling * random();
}

/** A `Retry-After` value (delay-seconds or an HTTP date) in milliseconds, or undefined when absent or unreadable. */
export function parseRetryAfterMs(value: string | null | undefined, now: number = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Only an HTTP date (RFC 9110: "Sun, 06 Nov 1994 08:49:37 GMT") may be a date; Date.parse would read "-1" as a year.
  if (!/^[A-Za-z]{3},? /.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** The wait before retry number `retry`: the server's `Retry-After`, clamped, or else the jittered backoff. */
export function retryDelayMs(
  policy: ResolvedRetryOptions,
  retry: number,
  retryAfter: string | null | undefined,
  random: () => number = Math.random,
  now: number = Date.now(),
): number {
  const asked = parseRetryAfterMs(retryAfter, now);
  if (asked !== undefined) return Math.min(asked, policy.maxRetryAfterMs);
  return backoffMs(policy, retry, random);
}

/** Whether an error answer may succeed when sent again. */
export function isRetryableStatus(status: number, code: string | undefined): boolean {
  // A 409 is transient only while the first request with the same Idempotency-Key is still running (docs/errors.md#idempotency_key_in_use).
  if (status === 409) return code === 'idempotency_key_in_use';
  return RETRYABLE_STATUSES.has(status);
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
