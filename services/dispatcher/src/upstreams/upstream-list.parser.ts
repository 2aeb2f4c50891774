/** The fields every upstream of a list has (docs/routing.md#several-upstreams-per-channel). */
export interface UpstreamListEntry {
  /** Unique name: the breaker's key in Redis and the `upstream` label in /metrics. */
  name: string;
  /** Lower numbers are tried first. */
  priority: number;
  /** Share of traffic among upstreams of the same priority. */
  weight: number;
}

const NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

export function isIntIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/** Messages per second a sender may send, the most any upstream grants (docs/routing.md#per-sender-limits). */
export const SENDER_RATE_MAX = 10_000_000;

/** `sender_rate` of a chat or RBM entry, when given: an integer from 0 (no limit) to SENDER_RATE_MAX. */
export function checkSenderRate(e: Record<string, unknown>, at: string, problems: string[]): void {
  if (e.sender_rate !== undefined && !isIntIn(e.sender_rate, 0, SENDER_RATE_MAX))
    problems.push(`${at}.sender_rate must be an integer from 0 to ${SENDER_RATE_MAX} (messages per second per sender; 0 is no limit)`);
}

/**
 * The JSON text of a list variable (SMS_UPSTREAMS, …), parsed; a problem naming `variable` when it is not JSON.
 */
export function parseJsonList(variable: string, raw: string): { value: unknown; problems: string[] } {
  try {
    return { value: JSON.parse(raw), problems: [] };
  } catch (error) {
    return { value: undefined, problems: [`${variable} must be a JSON array of upstreams: ${(error as Error).message}`] };
  }
}

/**
 * Checks a list of upstreams, parsed from one variable (SMS_UPSTREAMS, CHAT_UPSTREAMS, …) or one key of
 * SANDBOX_UPSTREAMS (`variable` is then `SANDBOX_UPSTREAMS.sms`). The common
 * checks (a non-empty array of objects, known fields, name, priority, weight, unique names) are made
 * here; `checkEntry` pushes the channel's own problems, and `build` runs only for an entry without any.
 * Each problem names the variable, the entry and the field.
 */
export function parseUpstreamList<T extends UpstreamListEntry>(options: {
  variable: string;
  value: unknown;
  fields: readonly string[];
  checkEntry: (entry: Record<string, unknown>, at: string, problems: string[]) => void;
  build: (entry: Record<string, unknown>, common: UpstreamListEntry) => T;
}): { upstreams: T[]; problems: string[] } {
  const { variable } = options;
  const known = new Set(['name', ...options.fields, 'priority', 'weight']);
  const problems: string[] = [];
  const parsed = options.value;
  if (!Array.isArray(parsed) || parsed.length === 0) return { upstreams: [], problems: [`${variable} must be a non-empty JSON array of upstreams`] };
  const upstreams: T[] = [];
  parsed.forEach((entry: unknown, i) => {
    const at = `${variable}[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${at} must be an object`);
      return;
    }
    const e = entry as Record<string, unknown>;
    for (const key of Object.keys(e)) if (!known.has(key)) problems.push(`${at}.${key} is not a known field (${[...known].join(', ')})`);
    const before = problems.length;
    if (typeof e.name !== 'string' || !NAME.test(e.name)) problems.push(`${at}.name must match ${NAME.source}`);
    options.checkEntry(e, at, problems);
    if (e.priority !== undefined && !isIntIn(e.priority, 0, 1000)) problems.push(`${at}.priority must be an integer from 0 to 1000`);
    if (e.weight !== undefined && !isIntIn(e.weight, 1, 1000)) problems.push(`${at}.weight must be an integer from 1 to 1000`);
    if (problems.length > before) return;
    if (upstreams.some((u) => u.name === e.name)) {
      problems.push(`${at}.name "${String(e.name)}" is used twice`);
      return;
    }
    upstreams.push(
      options.build(e, { name: e.name as string, priority: (e.priority as number | undefined) ?? 1, weight: (e.weight as number | undefined) ?? 1 }),
    );
  });
  return { upstreams, problems };
}
