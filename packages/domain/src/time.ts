/** ISO 8601 UTC with milliseconds, the one timestamp format of the API (docs/conventions.md#timestamps). */
export function isoNow(clock: () => number = Date.now): string {
  return new Date(clock()).toISOString();
}

export function toIso(value: Date | string | number | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return new Date(value).toISOString();
}
