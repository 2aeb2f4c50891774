/**
 * Header values of the IETF RateLimit fields draft as docs/conventions.md#rate-limits spells them:
 * `RateLimit-Policy: "default";q=<quota>;w=<window>` and `RateLimit: "default";r=<remaining>;t=<reset>`.
 */
export function rateLimitPolicyHeader(quota: number, windowSeconds: number): string {
  return `"default";q=${quota};w=${windowSeconds}`;
}

export function rateLimitHeader(remaining: number, resetSeconds: number): string {
  return `"default";r=${Math.max(0, remaining)};t=${Math.max(0, resetSeconds)}`;
}

/** Seconds until a window that has `ttlMs` left resets; never 0, so a client never retries at once. */
export function resetSeconds(ttlMs: number): number {
  return Math.max(1, Math.ceil(ttlMs / 1000));
}
