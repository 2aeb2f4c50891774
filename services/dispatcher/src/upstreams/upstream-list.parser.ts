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

/**
 * Parses a JSON list of upstreams held in one variable (SMS_UPSTREAMS, CHAT_UPSTREAMS, …). The common
 * checks (a non-empty array of objects, known fields, name, priority, weight, unique names) are made
 * here; `checkEntry` pushes the channel's own problems, and `build` runs only for an entry without any.
 * Each problem names the variable, the entry and the field.
 */
export function parseUpstreamList<T extends UpstreamListEntry>(options: {
  variable: string;
  raw: string;
  fields: readonly string[];
  checkEntry: (entry: Record<string, unknown>, at: string, problems: string[]) => void;
  build: (entry: Record<string, unknown>, common: UpstreamListEntry) => T;
}): { upstreams: T[]; problems: string[] } {
  const { variable } = options;
  const known = new Set(['name', ...options.fields, 'priority', 'weight']);
  const problems: string[] = [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(options.raw);
  } catch (error) {
    return { upstreams: [], problems: [`${variable} must be a JSON array of upstreams: ${(error as Error).message}`] };
  }
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
