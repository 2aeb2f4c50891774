import { isIntIn, parseUpstreamList, type UpstreamListEntry } from './upstream-list.parser';

/** One SMSC of a channel's upstream list (docs/routing.md#several-upstreams-per-channel). */
export interface SmsUpstreamConfig extends UpstreamListEntry {
  host: string;
  port: number;
  systemId: string;
  password: string;
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
  return parseUpstreamList<SmsUpstreamConfig>({
    variable,
    raw,
    fields: ['host', 'port', 'system_id', 'password'],
    checkEntry: (e, at, problems) => {
      if (typeof e.host !== 'string' || e.host === '') problems.push(`${at}.host must be a non-empty string`);
      if (!isIntIn(e.port, 1, 65535)) problems.push(`${at}.port must be an integer from 1 to 65535`);
      if (e.system_id !== undefined && (typeof e.system_id !== 'string' || e.system_id === '')) problems.push(`${at}.system_id must be a non-empty string`);
      if (e.password !== undefined && typeof e.password !== 'string') problems.push(`${at}.password must be a string`);
    },
    build: (e, common) => ({
      ...common,
      host: e.host as string,
      port: e.port as number,
      systemId: credentials?.systemId ?? (e.system_id as string | undefined) ?? defaults.systemId,
      password: credentials?.password ?? (e.password as string | undefined) ?? defaults.password,
    }),
  });
}
