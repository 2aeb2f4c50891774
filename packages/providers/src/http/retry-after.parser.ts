/**
 * Reads an HTTP `Retry-After` value (delta seconds or an HTTP date) as milliseconds.
 * Returns undefined when absent or unreadable, so callers fall back to their own schedule.
 */
export function parseRetryAfterMs(value: unknown, now: number = Date.now()): number | undefined {
  const raw: unknown = Array.isArray(value) ? value[0] : value;
  if (typeof raw === 'number' && Number.isFinite(raw) && raw >= 0) return Math.round(raw * 1000);
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  const trimmed = raw.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
