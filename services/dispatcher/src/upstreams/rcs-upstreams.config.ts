import { checkSenderRate, parseUpstreamList, type UpstreamListEntry } from './upstream-list.parser';

/** One RBM upstream of the RCS list (docs/routing.md#several-upstreams-per-channel). */
export interface RcsUpstreamConfig extends UpstreamListEntry {
  baseUrl: string;
  accessToken: string;
  /** Messages per second per sender number this upstream grants; 0 is no limit (docs/routing.md#per-sender-limits). */
  senderRate: number;
  agentId: string;
}

const HTTP_URL = /^https?:\/\/[^\s/]+/;
/** No limit unless the entry says: RBM grants each agent its own rate (docs/routing.md#per-sender-limits). */
const DEFAULT_SENDER_RATE = 0;

/**
 * Checks a parsed JSON list such as `RCS_UPSTREAMS='[{"name":"rbm-eu","base_url":"https://rcsbusinessmessaging.googleapis.com",
 * "access_token":"…","agent_id":"…","priority":1}]'`. A missing access_token or agent_id takes `defaults`;
 * `credentials`, when given, replaces them (the sandbox's are fixed).
 */
export function parseRcsUpstreams(
  variable: string,
  value: unknown,
  defaults: { accessToken: string; agentId: string },
  credentials?: { accessToken: string; agentId: string },
): { upstreams: RcsUpstreamConfig[]; problems: string[] } {
  return parseUpstreamList<RcsUpstreamConfig>({
    variable,
    value,
    fields: ['base_url', 'access_token', 'agent_id', 'sender_rate'],
    checkEntry: (e, at, problems) => {
      if (typeof e.base_url !== 'string' || !HTTP_URL.test(e.base_url)) problems.push(`${at}.base_url must be an http(s) URL`);
      if (e.access_token !== undefined && (typeof e.access_token !== 'string' || e.access_token === ''))
        problems.push(`${at}.access_token must be a non-empty string`);
      checkSenderRate(e, at, problems);
      if (e.agent_id !== undefined && (typeof e.agent_id !== 'string' || e.agent_id === '')) problems.push(`${at}.agent_id must be a non-empty string`);
    },
    build: (e, common) => ({
      ...common,
      baseUrl: e.base_url as string,
      senderRate: (e.sender_rate as number | undefined) ?? DEFAULT_SENDER_RATE,
      accessToken: credentials?.accessToken ?? (e.access_token as string | undefined) ?? defaults.accessToken,
      agentId: credentials?.agentId ?? (e.agent_id as string | undefined) ?? defaults.agentId,
    }),
  });
}
