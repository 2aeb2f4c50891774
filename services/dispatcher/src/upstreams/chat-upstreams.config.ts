import { parseUpstreamList, type UpstreamListEntry } from './upstream-list.parser';

/** One Cloud API upstream of the chat list (docs/routing.md#several-upstreams-per-channel). */
export interface ChatUpstreamConfig extends UpstreamListEntry {
  baseUrl: string;
  accessToken: string;
  wabaId: string;
}

const HTTP_URL = /^https?:\/\/[^\s/]+/;

/**
 * Parses a JSON list such as `CHAT_UPSTREAMS='[{"name":"meta","base_url":"https://graph.facebook.com",
 * "access_token":"…","waba_id":"…","priority":1}]'`. A missing access_token or waba_id takes `defaults`;
 * `credentials`, when given, replaces them (the sandbox's are fixed).
 */
export function parseChatUpstreams(
  variable: string,
  raw: string,
  defaults: { accessToken: string; wabaId: string },
  credentials?: { accessToken: string; wabaId: string },
): { upstreams: ChatUpstreamConfig[]; problems: string[] } {
  return parseUpstreamList<ChatUpstreamConfig>({
    variable,
    raw,
    fields: ['base_url', 'access_token', 'waba_id'],
    checkEntry: (e, at, problems) => {
      if (typeof e.base_url !== 'string' || !HTTP_URL.test(e.base_url)) problems.push(`${at}.base_url must be an http(s) URL`);
      if (e.access_token !== undefined && (typeof e.access_token !== 'string' || e.access_token === ''))
        problems.push(`${at}.access_token must be a non-empty string`);
      if (e.waba_id !== undefined && (typeof e.waba_id !== 'string' || !/^\d+$/.test(e.waba_id))) problems.push(`${at}.waba_id must be a string of digits`);
    },
    build: (e, common) => ({
      ...common,
      baseUrl: e.base_url as string,
      accessToken: credentials?.accessToken ?? (e.access_token as string | undefined) ?? defaults.accessToken,
      wabaId: credentials?.wabaId ?? (e.waba_id as string | undefined) ?? defaults.wabaId,
    }),
  });
}
