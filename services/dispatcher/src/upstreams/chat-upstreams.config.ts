import { checkSenderRate, parseUpstreamList, type UpstreamListEntry } from './upstream-list.parser';

/** One Cloud API upstream of the chat list (docs/routing.md#several-upstreams-per-channel). */
export interface ChatUpstreamConfig extends UpstreamListEntry {
  baseUrl: string;
  accessToken: string;
  /** Messages per second per sender number this upstream grants; 0 is no limit (docs/routing.md#per-sender-limits). */
  senderRate: number;
  wabaId: string;
}

const HTTP_URL = /^https?:\/\/[^\s/]+/;
/** 80 messages per second: Meta's default throughput per business phone number (docs/routing.md#per-sender-limits). */
export const DEFAULT_SENDER_RATE = 80;

/**
 * Checks a parsed JSON list such as `CHAT_UPSTREAMS='[{"name":"meta","base_url":"https://graph.facebook.com",
 * "access_token":"…","waba_id":"…","priority":1,"sender_rate":80}]'`. A missing access_token or waba_id takes `defaults`;
 * `credentials`, when given, replaces them (the sandbox's are fixed).
 */
export function parseChatUpstreams(
  variable: string,
  value: unknown,
  defaults: { accessToken: string; wabaId: string },
  credentials?: { accessToken: string; wabaId: string },
): { upstreams: ChatUpstreamConfig[]; problems: string[] } {
  return parseUpstreamList<ChatUpstreamConfig>({
    variable,
    value,
    fields: ['base_url', 'access_token', 'waba_id', 'sender_rate'],
    checkEntry: (e, at, problems) => {
      if (typeof e.base_url !== 'string' || !HTTP_URL.test(e.base_url)) problems.push(`${at}.base_url must be an http(s) URL`);
      if (e.access_token !== undefined && (typeof e.access_token !== 'string' || e.access_token === ''))
        problems.push(`${at}.access_token must be a non-empty string`);
      checkSenderRate(e, at, problems);
      if (e.waba_id !== undefined && (typeof e.waba_id !== 'string' || !/^\d+$/.test(e.waba_id))) problems.push(`${at}.waba_id must be a string of digits`);
    },
    build: (e, common) => ({
      ...common,
      baseUrl: e.base_url as string,
      senderRate: (e.sender_rate as number | undefined) ?? DEFAULT_SENDER_RATE,
      accessToken: credentials?.accessToken ?? (e.access_token as string | undefined) ?? defaults.accessToken,
      wabaId: credentials?.wabaId ?? (e.waba_id as string | undefined) ?? defaults.wabaId,
    }),
  });
}
