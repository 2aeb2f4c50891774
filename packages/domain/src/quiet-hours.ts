/** Local start and end of the period in which marketing messages wait (docs/routing.md#quiet-hours). */
export interface QuietHours {
  /** "HH:MM", 24-hour clock, in the recipient's time zone. */
  start: string;
  end: string;
}

export const QUIET_HOURS_TIME_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';

const DAY_MS = 86_400_000;

function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
}

/** Milliseconds since local midnight in `timeZone` at `now`. */
function localTimeOfDayMs(now: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hourCycle: 'h23', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(now);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return ((get('hour') * 60 + get('minute')) * 60 + get('second')) * 1000 + (now % 1000);
}

/**
 * How long a message must wait in one zone: 0 outside the quiet period, otherwise the time until its
 * end. The period may cross midnight (21:00–08:00); equal start and end means no quiet period. The local
 * clock is read at `now`, so a daylight-saving change inside the period can move the end by its shift.
 */
export function quietDelayInZone(now: number, quiet: QuietHours, timeZone: string): number {
  const start = minutesOf(quiet.start) * 60_000;
  const end = minutesOf(quiet.end) * 60_000;
  if (start === end) return 0;
  const t = localTimeOfDayMs(now, timeZone);
  const inside = start < end ? t >= start && t < end : t >= start || t < end;
  return inside ? (end - t + DAY_MS) % DAY_MS : 0;
}

/**
 * The wait for a recipient whose number may lie in several zones: until the quiet period has ended in
 * every one of them (the longest wait), so no candidate zone receives the message during its night.
 */
export function quietDelay(now: number, quiet: QuietHours, timeZones: readonly string[]): number {
  return timeZones.reduce((longest, zone) => Math.max(longest, quietDelayInZone(now, quiet, zone)), 0);
}
