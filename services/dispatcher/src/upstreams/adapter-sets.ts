import { isDeepStrictEqual } from 'node:util';
import type { KeyMode } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';
import { createChatAdapter, createRcsAdapter, createSmsAdapter, type ChatAdapter, type RcsAdapter, type SmsAdapter } from '@switchboard/providers';
import type { UpstreamBreakerStore, UpstreamDescription } from '@switchboard/shared-state';
import type { SenderSchedule } from './sender-rate-limiter';
import type { UpstreamSet } from './upstream-sets.config';
import type { DispatcherMetrics } from '../metrics';
import type { BreakerPolicy } from './circuit-breaker';
import type { ChatUpstreamConfig } from './chat-upstreams.config';
import { createFailoverChatAdapter } from './failover-chat.adapter';
import { createFailoverRcsAdapter } from './failover-rcs.adapter';
import { createFailoverSmsAdapter, type NamedSmsUpstream } from './failover-sms.adapter';
import type { RcsUpstreamConfig } from './rcs-upstreams.config';
import type { SmsUpstreamConfig } from './sms-upstreams.config';

export interface ChannelAdapters {
  chat: ChatAdapter;
  rcs: RcsAdapter;
  sms: SmsAdapter;
}

export type AdaptersByMode = Readonly<Record<KeyMode, ChannelAdapters>>;

export interface AdapterSets {
  byMode: AdaptersByMode;
  /** Every distinct SMPP session: one per SMSC, shared when live and sandbox name the same one. */
  smsSessions: SmsAdapter[];
  /** What GET /v1/upstreams lists (docs/api.md#get-v1upstreams). */
  descriptions: UpstreamDescription[];
  /** Every upstream with a breaker, for the /metrics gauges. */
  breakerNames: Array<{ channel: 'chat' | 'rcs' | 'sms'; name: string }>;
  /** RBM dedupes a resend on our messageId only within one upstream: true where a mode has one. */
  rcsResendDeduped: Readonly<Record<KeyMode, boolean>>;
  /**
   * The per-sender schedule of each mode's channel (docs/routing.md#per-sender-limits). With several
   * upstreams on a channel the limit is taken before one is chosen, so their names together key one bucket.
   */
  senderSchedules: Readonly<Record<KeyMode, Readonly<Record<'chat' | 'rcs' | 'sms', SenderSchedule>>>>;
}

/**
 * One bucket for a channel's upstreams: the lowest rate any of them grants, so that whichever one a message goes to,
 * its limit is never exceeded (an upstream with rate 0 sets none).
 */
function scheduleOf(list: ReadonlyArray<{ name: string; senderRate: number }>): SenderSchedule {
  const rates = list.map((u) => u.senderRate).filter((rate) => rate > 0);
  return { upstream: list.map((u) => u.name).join('+'), rate: rates.length > 0 ? Math.min(...rates) : 0 };
}

const senderSchedulesOf = (set: UpstreamSet) => ({ chat: scheduleOf(set.chat), rcs: scheduleOf(set.rcs), sms: scheduleOf(set.sms) });

const connectionOf = (u: SmsUpstreamConfig) => ({
  host: u.host,
  port: u.port,
  systemId: u.systemId,
  password: u.password,
  binds: u.binds,
  windowSize: u.window,
});

/**
 * Test keys always use the sandbox set, live keys the live one (docs/authentication.md#test-and-live-keys). Where a live setting
 * equals its sandbox counterpart (the default) the adapter is shared: in particular an SMSC gets
 * one bind, since a second bind with the same system_id would split its receipts between two sessions.
 * Each mode's SMS, chat and RCS adapters fail over between their upstreams (docs/routing.md#several-upstreams-per-channel).
 */
export function createAdapterSets(deps: {
  sandbox: UpstreamSet;
  live: UpstreamSet;
  logger: Logger;
  breakers: UpstreamBreakerStore;
  policy: BreakerPolicy;
  clock: () => number;
  metrics: DispatcherMetrics;
}): AdapterSets {
  const { sandbox, live, logger } = deps;
  const sessions: Array<{ connection: ReturnType<typeof connectionOf>; adapter: SmsAdapter }> = [];
  const sessionFor = (u: SmsUpstreamConfig): SmsAdapter => {
    const connection = connectionOf(u);
    const known = sessions.find((s) => isDeepStrictEqual(s.connection, connection));
    if (known) return known.adapter;
    const adapter = createSmsAdapter({ config: connection, logger });
    sessions.push({ connection, adapter });
    return adapter;
  };
  const failoverSms = (list: SmsUpstreamConfig[]) => {
    const upstreams: NamedSmsUpstream[] = list.map((config) => ({ config, adapter: sessionFor(config) }));
    return createFailoverSmsAdapter({ upstreams, breakers: deps.breakers, policy: deps.policy, clock: deps.clock, logger, metrics: deps.metrics });
  };
  // One HTTP client per distinct Cloud API account, shared when live and sandbox name the same one.
  const chatClients: Array<{ config: Omit<ChatUpstreamConfig, 'priority' | 'weight' | 'senderRate'>; adapter: ChatAdapter }> = [];
  const chatClientFor = (u: ChatUpstreamConfig): ChatAdapter => {
    const config = { name: u.name, baseUrl: u.baseUrl, accessToken: u.accessToken, wabaId: u.wabaId };
    const known = chatClients.find((c) => isDeepStrictEqual(c.config, config));
    if (known) return known.adapter;
    const adapter = createChatAdapter({ config, logger });
    chatClients.push({ config, adapter });
    return adapter;
  };
  const failoverChat = (list: ChatUpstreamConfig[]) =>
    createFailoverChatAdapter({
      upstreams: list.map((u) => ({ name: u.name, priority: u.priority, weight: u.weight, adapter: chatClientFor(u) })),
      breakers: deps.breakers,
      policy: deps.policy,
      clock: deps.clock,
      logger,
      metrics: deps.metrics,
    });
  // One RBM client per distinct agent and address, shared when live and sandbox name the same one.
  const rcsClients: Array<{ config: Omit<RcsUpstreamConfig, 'priority' | 'weight' | 'senderRate'>; adapter: RcsAdapter }> = [];
  const rcsClientFor = (u: RcsUpstreamConfig): RcsAdapter => {
    const config = { name: u.name, baseUrl: u.baseUrl, accessToken: u.accessToken, agentId: u.agentId };
    const known = rcsClients.find((c) => isDeepStrictEqual(c.config, config));
    if (known) return known.adapter;
    const adapter = createRcsAdapter({ config, logger });
    rcsClients.push({ config, adapter });
    return adapter;
  };
  const failoverRcs = (list: RcsUpstreamConfig[]) =>
    createFailoverRcsAdapter({
      upstreams: list.map((u) => ({ name: u.name, priority: u.priority, weight: u.weight, adapter: rcsClientFor(u) })),
      breakers: deps.breakers,
      policy: deps.policy,
      clock: deps.clock,
      logger,
      metrics: deps.metrics,
    });
  const sandboxSet: ChannelAdapters = {
    chat: failoverChat(sandbox.chat),
    rcs: failoverRcs(sandbox.rcs),
    sms: failoverSms(sandbox.sms),
  };
  const liveSet: ChannelAdapters = {
    chat: isDeepStrictEqual(live.chat, sandbox.chat) ? sandboxSet.chat : failoverChat(live.chat),
    rcs: isDeepStrictEqual(live.rcs, sandbox.rcs) ? sandboxSet.rcs : failoverRcs(live.rcs),
    sms: isDeepStrictEqual(live.sms, sandbox.sms) ? sandboxSet.sms : failoverSms(live.sms),
  };
  const describe = (mode: KeyMode, set: UpstreamSet): UpstreamDescription[] =>
    (['chat', 'rcs', 'sms'] as const).flatMap((channel) => set[channel].map((u) => ({ name: u.name, channel, mode, priority: u.priority, weight: u.weight })));
  const named = (channel: 'chat' | 'rcs' | 'sms') =>
    [...new Set([...sandbox[channel], ...live[channel]].map((u) => u.name))].map((name) => ({ channel, name }));
  return {
    byMode: { test: sandboxSet, live: liveSet },
    smsSessions: sessions.map((s) => s.adapter),
    descriptions: [...describe('test', sandbox), ...describe('live', live)],
    breakerNames: [...named('chat'), ...named('rcs'), ...named('sms')],
    rcsResendDeduped: { test: sandbox.rcs.length === 1, live: live.rcs.length === 1 },
    senderSchedules: { test: senderSchedulesOf(sandbox), live: senderSchedulesOf(live) },
  };
}
