import { isIntIn, parseUpstreamList, SENDER_RATE_MAX, type UpstreamListEntry } from './upstream-list.parser';

/** One SMSC of a channel's upstream list (docs/routing.md#several-upstreams-per-channel). */
export interface SmsUpstreamConfig extends UpstreamListEntry {
  host: string;
  port: number;
  systemId: string;
  password: string;
  /** Transceiver binds opened to this SMSC, as many as it granted the account (docs/routing.md#per-sender-limits). */
  binds: number;
  /** Most submit_sm awaiting their submit_sm_resp on one bind. */
  window: number;
  /** SMS per second per sender on this SMSC, a rate per bind already multiplied by `binds`; 0 is no limit. */
  senderRate: number;
}

/** One bind unless told: most SMSCs refuse more binds than they granted. */
export const DEFAULT_BINDS = 1;
/** Ten submit_sm in flight per bind, the window most SMSCs grant. */
export const DEFAULT_WINDOW = 10;

const SENDER_RATE = /^\s*(\d{1,8})\s*(\/\s*bind)?\s*$/;

/**
 * `sender_rate` of an SMSC, as it grants it: a rate (`30`, or `"30"`), or a rate per bind (`"30/bind"`), which a
 * sender's schedule allows `binds` times (docs/routing.md#per-sender-limits); undefined when it is neither.
 */
export function smsSenderRate(value: unknown, binds: number): number | undefined {
  if (isIntIn(value, 0, SENDER_RATE_MAX)) return value;
  const match = typeof value === 'string' ? SENDER_RATE.exec(value) : null;
  if (!match || Number(match[1]) > SENDER_RATE_MAX) return undefined;
  return Number(match[1]) * (match[2] ? binds : 1);
}

/**
 * Checks a parsed JSON list such as `SMS_UPSTREAMS='[{"name":"smsc-a","host":"10.0.0.5","port":2775,
 * "system_id":"acme","password":"…","priority":1,"weight":1,"binds":2,"window":10,"sender_rate":"30/bind"}]'`. Each
 * problem names the variable, the entry and the field. `credentials`, when given, replaces system_id and password
 * (the sandbox's are fixed).
 */
export function parseSmsUpstreams(
  variable: string,
  value: unknown,
  defaults: { systemId: string; password: string },
  credentials?: { systemId: string; password: string },
): { upstreams: SmsUpstreamConfig[]; problems: string[] } {
  return parseUpstreamList<SmsUpstreamConfig>({
    variable,
    value,
    fields: ['host', 'port', 'system_id', 'password', 'binds', 'window', 'sender_rate'],
    checkEntry: (e, at, problems) => {
      if (typeof e.host !== 'string' || e.host === '') problems.push(`${at}.host must be a non-empty string`);
      if (!isIntIn(e.port, 1, 65535)) problems.push(`${at}.port must be an integer from 1 to 65535`);
      if (e.system_id !== undefined && (typeof e.system_id !== 'string' || e.system_id === '')) problems.push(`${at}.system_id must be a non-empty string`);
      if (e.password !== undefined && typeof e.password !== 'string') problems.push(`${at}.password must be a string`);
      if (e.binds !== undefined && !isIntIn(e.binds, 1, 64)) problems.push(`${at}.binds must be an integer from 1 to 64`);
      if (e.window !== undefined && !isIntIn(e.window, 1, 1000)) problems.push(`${at}.window must be an integer from 1 to 1000`);
      if (e.sender_rate !== undefined && smsSenderRate(e.sender_rate, 1) === undefined)
        problems.push(`${at}.sender_rate must be a rate such as 30 or a rate per bind such as "30/bind" (0 to ${SENDER_RATE_MAX}; 0 is no limit)`);
    },
    build: (e, common) => {
      const binds = (e.binds as number | undefined) ?? DEFAULT_BINDS;
      return {
        ...common,
        host: e.host as string,
        port: e.port as number,
        systemId: credentials?.systemId ?? (e.system_id as string | undefined) ?? defaults.systemId,
        password: credentials?.password ?? (e.password as string | undefined) ?? defaults.password,
        binds,
        window: (e.window as number | undefined) ?? DEFAULT_WINDOW,
        senderRate: e.sender_rate === undefined ? 0 : (smsSenderRate(e.sender_rate, binds) as number),
      };
    },
  });
}
