import { isDeepStrictEqual } from 'node:util';
import type { KeyMode } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';
import { createChatAdapter, createRcsAdapter, createSmsAdapter, type ChatAdapter, type RcsAdapter, type SmsAdapter } from '@switchboard/providers';
import type { UpstreamBreakerStore, UpstreamDescription } from '@switchboard/shared-state';
import type { UpstreamSet } from '../config';
import type { DispatcherMetrics } from '../metrics';
import type { BreakerPolicy } from './circuit-breaker';
import { createFailoverSmsAdapter, type NamedSmsUpstream } from './failover-sms.adapter';
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
  /** Every upstream name with a breaker, for the /metrics gauges. */
  breakerNames: string[];
}

const connectionOf = (u: SmsUpstreamConfig) => ({ host: u.host, port: u.port, systemId: u.systemId, password: u.password });

/**
 * Test keys always use the sandbox set, live keys the live one (docs/authentication.md#test-and-live-keys). Where a live setting
 * equals its sandbox counterpart (the default) the adapter is shared: in particular an SMSC gets
 * one bind, since a second bind with the same system_id would split its receipts between two sessions.
 * Each mode's SMS adapter fails over between its SMSCs (docs/routing.md#several-upstreams-per-channel).
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
  const sandboxSet: ChannelAdapters = {
    chat: createChatAdapter({ config: sandbox.chat, logger }),
    rcs: createRcsAdapter({ config: sandbox.rcs, logger }),
    sms: failoverSms(sandbox.sms),
  };
  const liveSet: ChannelAdapters = {
    chat: isDeepStrictEqual(live.chat, sandbox.chat) ? sandboxSet.chat : createChatAdapter({ config: live.chat, logger }),
    rcs: isDeepStrictEqual(live.rcs, sandbox.rcs) ? sandboxSet.rcs : createRcsAdapter({ config: live.rcs, logger }),
    sms: isDeepStrictEqual(live.sms, sandbox.sms) ? sandboxSet.sms : failoverSms(live.sms),
  };
  const describe = (mode: KeyMode, list: SmsUpstreamConfig[]): UpstreamDescription[] =>
    list.map((u) => ({ name: u.name, channel: 'sms', mode, priority: u.priority, weight: u.weight }));
  return {
    byMode: { test: sandboxSet, live: liveSet },
    smsSessions: sessions.map((s) => s.adapter),
    descriptions: [...describe('test', sandbox.sms), ...describe('live', live.sms)],
    breakerNames: [...new Set([...sandbox.sms, ...live.sms].map((u) => u.name))],
  };
}
