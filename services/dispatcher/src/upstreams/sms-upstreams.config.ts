/** One SMSC of a channel's upstream list (docs/routing.md#several-upstreams-per-channel). */
export interface SmsUpstreamConfig {
  /** Unique name: the breaker's key in Redis and the `upstream` label in /metrics. */
  name: string;
  host: string;
  port: number;
  systemId: string;
  password: string;
  /** Lower numbers are tried first. */
  priority: number;
  /** Share of traffic among upstreams of the same priority. */
  weight: number;
}

const NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;
const KNOWN_FIELDS = new Set(['name', 'host', 'port', 'system_id', 'password', 'priority', 'weight']);

function isIntIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/**
 * Parses a JSON list such as `SMS_UPSTREAMS='[{"name":"smsc-a","host":"10.0.0.5","port":2775,
 * "system_id":"acme","password":"…","priority":1,"weight":1}]'`. Each problem names the variable, the
 * entry and the field. `credentials`, when given, replaces system_id and password (the sandbox's are fixed).
 */
export function parseSmsUpstreams(
  variable: string,
  raw: string,
  defaults: { systemId: string; password: string },
  credentials?: { systemId: string; password: string },
): { upstreams: SmsUpstreamConfig[]; problems: string[] } {
  const problems: string[] = [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    return { upstreams: [], problems: [`${variable} must be a JSON array of upstreams: ${(error as Error).message}`] };
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return { upstreams: [], problems: [`${variable} must be a non-empty JSON array of upstreams`] };
  const upstreams: SmsUpstreamConfig[] = [];
  parsed.forEach((entry: unknown, i) => {
    const at = `${variable}[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`${at} must be an object`);
      return;
    }
    const e = entry as Record<string, unknown>;
    for (const key of Object.keys(e)) if (!KNOWN_FIELDS.has(key)) problems.push(`${at}.${key} is not a known field (${[...KNOWN_FIELDS].join(', ')})`);
    const before = problems.length;
    if (typeof e.name !== 'string' || !NAME.test(e.name)) problems.push(`${at}.name must match ${NAME.source}`);
    if (typeof e.host !== 'string' || e.host === '') problems.push(`${at}.host must be a non-empty string`);
    if (!isIntIn(e.port, 1, 65535)) problems.push(`${at}.port must be an integer from 1 to 65535`);
    if (e.system_id !== undefined && (typeof e.system_id !== 'string' || e.system_id === '')) problems.push(`${at}.system_id must be a non-empty string`);
    if (e.password !== undefined && typeof e.password !== 'string') problems.push(`${at}.password must be a string`);
    if (e.priority !== undefined && !isIntIn(e.priority, 0, 1000)) problems.push(`${at}.priority must be an integer from 0 to 1000`);
    if (e.weight !== undefined && !isIntIn(e.weight, 1, 1000)) problems.push(`${at}.weight must be an integer from 1 to 1000`);
    if (problems.length > before) return;
    if (upstreams.some((u) => u.name === e.name)) {
      problems.push(`${at}.name "${String(e.name)}" is used twice`);
      return;
    }
    upstreams.push({
      name: e.name as string,
      host: e.host as string,
      port: e.port as number,
      systemId: credentials?.systemId ?? (e.system_id as string | undefined) ?? defaults.systemId,
      password: credentials?.password ?? (e.password as string | undefined) ?? defaults.password,
      priority: (e.priority as number | undefined) ?? 1,
      weight: (e.weight as number | undefined) ?? 1,
    });
  });
  return { upstreams, problems };
}
