import type { UnitPrices } from '@switchboard/domain';
import { EnvReader, type Env, readCommonConfig, redactUrlCredentials, type CommonConfig } from '@switchboard/runtime';
import { FIXED_BREAKER_THRESHOLDS, type BreakerPolicy } from './upstreams/circuit-breaker';
import type { SenderRates } from './upstreams/sender-rate-limiter';
import { parseChatUpstreams, type ChatUpstreamConfig } from './upstreams/chat-upstreams.config';
import { parseRcsUpstreams, type RcsUpstreamConfig } from './upstreams/rcs-upstreams.config';
import { parseSmsUpstreams, type SmsUpstreamConfig } from './upstreams/sms-upstreams.config';

export type { ChatUpstreamConfig };

export type { RcsUpstreamConfig };

export interface UpstreamSet {
  /** One or more Cloud API upstreams, tried like the SMSCs (docs/routing.md#several-upstreams-per-channel). */
  chat: ChatUpstreamConfig[];
  /** One or more RBM upstreams, tried like the SMSCs (docs/routing.md#several-upstreams-per-channel). */
  rcs: RcsUpstreamConfig[];
  /** One or more SMSCs, tried by priority and weight behind circuit breakers (docs/routing.md#several-upstreams-per-channel). */
  sms: SmsUpstreamConfig[];
}

export interface DispatcherConfig extends CommonConfig {
  healthPort: number;
  healthHost: string;
  concurrency: number;
  /** Bulk-lane jobs this process runs at once, beside `concurrency` transactional ones (docs/messages.md#traffic-lanes). */
  bulkConcurrency: number;
  reconcileTimeoutMs: number;
  stalledIntervalMs: number;
  lockDurationMs: number;
  /** `auto` moves on when a message is not delivered this long after acceptance, unless the request or account says otherwise (docs/routing.md#time-based-fallback). */
  fallbackTimeoutSeconds: number;
  /** Chat media links must be https (docs/chat.md#image-document-audio); local stacks serve test media over http. */
  chatMediaAllowHttp: boolean;
  /**
   * Media links may point at loopback and private networks (local stacks and tests, where the carrier
   * simulator serves media on 127.0.0.1); cloud metadata addresses are refused regardless.
   */
  mediaAllowPrivateNetworks: boolean;
  /** The gateway's sender for test keys without a chat number; replies to it open the sandbox window. */
  sandboxSender: string;
  /** Confirmations sent after STOP and START (docs/routing.md#opt-out). */
  optOutReplies: { optOut: string; optIn: string };
  /** The unit prices of the confirmations' cost_units; the same PRICE_* as the gateway. */
  prices: UnitPrices;
  /** Upstreams for `sk_test_` keys: always the carrier simulator (docs/authentication.md#test-and-live-keys). */
  sandbox: UpstreamSet;
  /** Upstreams for live keys; each one defaults to its sandbox counterpart. */
  live: UpstreamSet;
  breaker: BreakerPolicy;
  /** How often /metrics' breaker gauges are refreshed from Redis. */
  breakerGaugeRefreshMs: number;
  /** Per-sender limits (docs/configuration.md#per-sender-limits). */
  senderRates: SenderRates;
  /** Transceiver binds per SMSC and the unacknowledged submit_sm allowed on each (docs/configuration.md#smpp-binds). */
  smpp: { binds: number; window: number };
}

/**
 * The carrier simulator's fixed sandbox credentials (docs/configuration.md). Only the addresses of the
 * simulator are configurable; test keys must reach the simulator whatever else is configured.
 */
const SANDBOX_CREDENTIALS = {
  chatAccessToken: 'sandbox-chat-token',
  chatWabaId: '100000000000001',
  rbmAccessToken: 'sandbox-rbm-token',
  rbmAgentId: 'switchboard-sandbox',
  smppSystemId: 'switchboard',
  smppPassword: 'sandbox',
} as const;

/** Twilio's wording for its default opt-out confirmations, which customers and carriers already know. */
const DEFAULT_OPT_OUT_REPLIES = {
  optOut: 'You have successfully been unsubscribed. You will not receive any more messages from this number. Reply START to resubscribe.',
  optIn: 'You have successfully been re-subscribed to messages from this number. Reply STOP to unsubscribe.',
} as const;

export function loadConfig(env: Env = process.env): Readonly<DispatcherConfig> {
  const read = new EnvReader(env);
  const smsList = (variable: string, fallback: SmsUpstreamConfig[], credentials?: { systemId: string; password: string }) => {
    const raw = env[variable];
    if (raw === undefined || raw.trim() === '') return fallback;
    const defaults = { systemId: fallback[0]?.systemId ?? SANDBOX_CREDENTIALS.smppSystemId, password: fallback[0]?.password ?? SANDBOX_CREDENTIALS.smppPassword };
    const parsed = parseSmsUpstreams(variable, raw, defaults, credentials);
    read.problems.push(...parsed.problems);
    return parsed.upstreams;
  };
  const chatList = (variable: string, fallback: ChatUpstreamConfig[], credentials?: { accessToken: string; wabaId: string }) => {
    const raw = env[variable];
    if (raw === undefined || raw.trim() === '') return fallback;
    const defaults = { accessToken: fallback[0]?.accessToken ?? SANDBOX_CREDENTIALS.chatAccessToken, wabaId: fallback[0]?.wabaId ?? SANDBOX_CREDENTIALS.chatWabaId };
    const parsed = parseChatUpstreams(variable, raw, defaults, credentials);
    read.problems.push(...parsed.problems);
    return parsed.upstreams;
  };
  const rcsList = (variable: string, fallback: RcsUpstreamConfig[], credentials?: { accessToken: string; agentId: string }) => {
    const raw = env[variable];
    if (raw === undefined || raw.trim() === '') return fallback;
    const defaults = { accessToken: fallback[0]?.accessToken ?? SANDBOX_CREDENTIALS.rbmAccessToken, agentId: fallback[0]?.agentId ?? SANDBOX_CREDENTIALS.rbmAgentId };
    const parsed = parseRcsUpstreams(variable, raw, defaults, credentials);
    read.problems.push(...parsed.problems);
    return parsed.upstreams;
  };
  const simBaseUrl = 'http://127.0.0.1:8090';
  const sandboxChatCredentials = { accessToken: SANDBOX_CREDENTIALS.chatAccessToken, wabaId: SANDBOX_CREDENTIALS.chatWabaId };
  const sandboxChat: ChatUpstreamConfig = {
    name: 'sandbox-chat',
    baseUrl: read.string('SANDBOX_CHAT_API_BASE_URL', simBaseUrl),
    ...sandboxChatCredentials,
    priority: 1,
    weight: 1,
  };
  const sandboxRcsCredentials = { accessToken: SANDBOX_CREDENTIALS.rbmAccessToken, agentId: SANDBOX_CREDENTIALS.rbmAgentId };
  // As with SANDBOX_SMS_UPSTREAMS, the list wins over the single address, which stacks always set.
  const sandbox: UpstreamSet = {
    chat: chatList('SANDBOX_CHAT_UPSTREAMS', [sandboxChat], sandboxChatCredentials),
    rcs: rcsList(
      'SANDBOX_RCS_UPSTREAMS',
      [{ name: 'sandbox-rbm', baseUrl: read.string('SANDBOX_RBM_API_BASE_URL', simBaseUrl), ...sandboxRcsCredentials, priority: 1, weight: 1 }],
      sandboxRcsCredentials,
    ),
    sms: [],
  };
  const sandboxCredentials = { systemId: SANDBOX_CREDENTIALS.smppSystemId, password: SANDBOX_CREDENTIALS.smppPassword };
  const sandboxSmsc: SmsUpstreamConfig = {
    name: 'sandbox-smsc',
    host: read.string('SANDBOX_SMPP_HOST', '127.0.0.1'),
    port: read.int('SANDBOX_SMPP_PORT', 2775, { min: 1, max: 65535 }),
    ...sandboxCredentials,
    priority: 1,
    weight: 1,
  };
  sandbox.sms = smsList('SANDBOX_SMS_UPSTREAMS', [sandboxSmsc], sandboxCredentials);
  const singleChatVariables = ['CHAT_API_BASE_URL', 'CHAT_ACCESS_TOKEN', 'CHAT_WABA_ID'];
  const liveChat: ChatUpstreamConfig = {
    name: 'chat',
    baseUrl: read.string('CHAT_API_BASE_URL', sandbox.chat[0]?.baseUrl ?? simBaseUrl),
    accessToken: read.string('CHAT_ACCESS_TOKEN', SANDBOX_CREDENTIALS.chatAccessToken),
    wabaId: read.string('CHAT_WABA_ID', SANDBOX_CREDENTIALS.chatWabaId),
    priority: 1,
    weight: 1,
  };
  const singleRcsVariables = ['RBM_API_BASE_URL', 'RBM_ACCESS_TOKEN', 'RBM_AGENT_ID'];
  const liveRbm: RcsUpstreamConfig = {
    name: 'rbm',
    baseUrl: read.string('RBM_API_BASE_URL', sandbox.rcs[0]?.baseUrl ?? simBaseUrl),
    accessToken: read.string('RBM_ACCESS_TOKEN', SANDBOX_CREDENTIALS.rbmAccessToken),
    agentId: read.string('RBM_AGENT_ID', SANDBOX_CREDENTIALS.rbmAgentId),
    priority: 1,
    weight: 1,
  };
  if (env.RCS_UPSTREAMS !== undefined && singleRcsVariables.some((v) => env[v] !== undefined)) {
    read.problems.push(`RCS_UPSTREAMS and ${singleRcsVariables.join('/')} are alternatives: set one or the other`);
  }
  if (env.CHAT_UPSTREAMS !== undefined && singleChatVariables.some((v) => env[v] !== undefined)) {
    read.problems.push(`CHAT_UPSTREAMS and ${singleChatVariables.join('/')} are alternatives: set one or the other`);
  }
  const live: UpstreamSet = {
    // Without any live chat setting, live keys use the sandbox list: the same adapters and breakers.
    chat: chatList('CHAT_UPSTREAMS', singleChatVariables.some((v) => env[v] !== undefined) ? [liveChat] : sandbox.chat),
    rcs: rcsList('RCS_UPSTREAMS', singleRcsVariables.some((v) => env[v] !== undefined) ? [liveRbm] : sandbox.rcs),
    sms: [],
  };
  const singleSmsVariables = ['SMPP_HOST', 'SMPP_PORT', 'SMPP_SYSTEM_ID', 'SMPP_PASSWORD'];
  const liveSmsc: SmsUpstreamConfig = {
    name: 'smsc',
    host: read.string('SMPP_HOST', sandboxSmsc.host),
    port: read.int('SMPP_PORT', sandboxSmsc.port, { min: 1, max: 65535 }),
    systemId: read.string('SMPP_SYSTEM_ID', sandboxSmsc.systemId),
    password: read.string('SMPP_PASSWORD', sandboxSmsc.password),
    priority: 1,
    weight: 1,
  };
  if (env.SMS_UPSTREAMS !== undefined && singleSmsVariables.some((v) => env[v] !== undefined)) {
    read.problems.push(`SMS_UPSTREAMS and ${singleSmsVariables.join('/')} are alternatives: set one or the other`);
  }
  // Without any live SMS setting, live keys use the sandbox list: the same sessions and breakers.
  live.sms = smsList('SMS_UPSTREAMS', singleSmsVariables.some((v) => env[v] !== undefined) ? [liveSmsc] : sandbox.sms);
  for (const u of live.sms) {
    const twin = sandbox.sms.find((s) => s.name === u.name);
    if (twin && (twin.host !== u.host || twin.port !== u.port || twin.systemId !== u.systemId)) {
      read.problems.push(`live SMSC "${u.name}" has the name of a different sandbox SMSC; names key the breakers, so use another`);
    }
  }
  for (const u of live.chat) {
    const twin = sandbox.chat.find((s) => s.name === u.name);
    if (twin && (twin.baseUrl !== u.baseUrl || twin.accessToken !== u.accessToken || twin.wabaId !== u.wabaId)) {
      read.problems.push(`live chat upstream "${u.name}" has the name of a different sandbox chat upstream; names key the breakers, so use another`);
    }
  }
  // Breakers are keyed by name alone, so one name cannot serve two channels.
  const smsNames = new Set([...sandbox.sms, ...live.sms].map((u) => u.name));
  for (const name of new Set([...sandbox.chat, ...live.chat].map((u) => u.name))) {
    if (smsNames.has(name)) read.problems.push(`upstream name "${name}" is used by both an SMSC and a chat upstream; names key the breakers, so use another`);
  }
  const chatNames = new Set([...sandbox.chat, ...live.chat].map((u) => u.name));
  for (const name of new Set([...sandbox.rcs, ...live.rcs].map((u) => u.name))) {
    if (smsNames.has(name) || chatNames.has(name)) read.problems.push(`upstream name "${name}" is used by an RBM upstream and another channel's; names key the breakers, so use another`);
  }
  for (const u of live.rcs) {
    const twin = sandbox.rcs.find((s) => s.name === u.name);
    if (twin && (twin.baseUrl !== u.baseUrl || twin.accessToken !== u.accessToken || twin.agentId !== u.agentId)) {
      read.problems.push(`live RBM upstream "${u.name}" has the name of a different sandbox RBM upstream; names key the breakers, so use another`);
    }
  }
  for (const [name, value] of Object.entries({
    SANDBOX_CHAT_API_BASE_URL: sandboxChat.baseUrl,
    SANDBOX_RBM_API_BASE_URL: sandbox.rcs[0]?.baseUrl ?? simBaseUrl,
    CHAT_API_BASE_URL: liveChat.baseUrl,
    RBM_API_BASE_URL: liveRbm.baseUrl,
  })) {
    if (!/^https?:\/\/[^\s/]+/.test(value)) read.problems.push(`${name} must be an http(s) URL, got "${value}"`);
  }
  const smppBinds = read.int('SMPP_BINDS', 1, { min: 1, max: 64 });
  const config: DispatcherConfig = {
    ...readCommonConfig(read),
    healthPort: read.int('HEALTH_PORT', 8081, { min: 0, max: 65535 }),
    healthHost: read.string('HEALTH_HOST', '127.0.0.1'),
    concurrency: read.int('DISPATCH_CONCURRENCY', 32, { min: 1, max: 10_000 }),
    bulkConcurrency: read.int('DISPATCH_BULK_CONCURRENCY', 32, { min: 1, max: 10_000 }),
    reconcileTimeoutMs: read.int('RECONCILE_TIMEOUT_MS', 30_000, { min: 0 }),
    stalledIntervalMs: read.int('STALLED_INTERVAL_MS', 30_000, { min: 100 }),
    lockDurationMs: read.int('LOCK_DURATION_MS', 30_000, { min: 100 }),
    fallbackTimeoutSeconds: read.int('FALLBACK_TIMEOUT_SECONDS', 60, { min: 1, max: 86_400 }),
    chatMediaAllowHttp: read.bool('CHAT_MEDIA_ALLOW_HTTP', false),
    mediaAllowPrivateNetworks: read.bool('MEDIA_ALLOW_PRIVATE_NETWORKS', false),
    sandboxSender: read.string('SANDBOX_SENDER', '+14155550100'),
    optOutReplies: {
      optOut: read.string('OPT_OUT_REPLY_TEXT', DEFAULT_OPT_OUT_REPLIES.optOut),
      optIn: read.string('OPT_IN_REPLY_TEXT', DEFAULT_OPT_OUT_REPLIES.optIn),
    },
    prices: Object.freeze({
      chat: read.int('PRICE_CHAT', 1, { min: 0, max: 1_000_000 }),
      rcs: read.int('PRICE_RCS', 1, { min: 0, max: 1_000_000 }),
      sms: read.int('PRICE_SMS', 1, { min: 0, max: 1_000_000 }),
    }),
    sandbox,
    live,
    breaker: {
      windowSize: read.int('UPSTREAM_BREAKER_WINDOW', 20, { min: 10, max: 1_000 }),
      minCalls: read.int('UPSTREAM_BREAKER_MIN_CALLS', 10, { min: 1, max: 1_000 }),
      coolDownMs: read.int('UPSTREAM_BREAKER_COOL_DOWN_MS', 30_000, { min: 100 }),
      ...FIXED_BREAKER_THRESHOLDS,
    },
    breakerGaugeRefreshMs: read.int('UPSTREAM_BREAKER_GAUGE_REFRESH_MS', 2_000, { min: 100 }),
    smpp: { binds: smppBinds, window: read.int('SMPP_WINDOW', 10, { min: 1, max: 1_000 }) },
    senderRates: Object.freeze({
      chat: read.int('SENDER_RATE_CHAT_PER_SECOND', 80, { min: 0, max: 10_000_000 }),
      // An SMSC grants its rate per bind; SENDER_RATE_SMS_PER_BIND says the figure is that one (docs/routing.md#per-sender-limits).
      sms: read.int('SENDER_RATE_SMS_PER_SECOND', 0, { min: 0, max: 10_000_000 }) * (read.bool('SENDER_RATE_SMS_PER_BIND', false) ? smppBinds : 1),
      rcs: read.int('SENDER_RATE_RCS_PER_SECOND', 0, { min: 0, max: 10_000_000 }),
    }),
  };
  if (config.breaker.minCalls > config.breaker.windowSize) read.problems.push('UPSTREAM_BREAKER_MIN_CALLS must not exceed UPSTREAM_BREAKER_WINDOW');
  return read.finish('dispatcher', config);
}

/** The non-secret values, logged once at start-up. */
export function describeConfig(config: DispatcherConfig): Record<string, unknown> {
  const upstreams = (set: UpstreamSet) => ({
    chat: set.chat.map((u) => ({ name: u.name, base_url: u.baseUrl, waba_id: u.wabaId, priority: u.priority, weight: u.weight })),
    rcs: set.rcs.map((u) => ({ name: u.name, base_url: u.baseUrl, agent_id: u.agentId, priority: u.priority, weight: u.weight })),
    sms: set.sms.map((u) => ({ name: u.name, smpp: `${u.host}:${u.port}`, system_id: u.systemId, priority: u.priority, weight: u.weight })),
  });
  return {
    redis_url: redactUrlCredentials(config.redisUrl),
    redis_cluster_nodes: config.redisClusterNodes,
    queue_prefix: config.queuePrefix,
    db_pool_size: config.dbPoolSize,
    health: `${config.healthHost}:${config.healthPort}`,
    concurrency: config.concurrency,
    bulk_concurrency: config.bulkConcurrency,
    reconcile_timeout_ms: config.reconcileTimeoutMs,
    stalled_interval_ms: config.stalledIntervalMs,
    lock_duration_ms: config.lockDurationMs,
    fallback_timeout_seconds: config.fallbackTimeoutSeconds,
    chat_media_allow_http: config.chatMediaAllowHttp,
    media_allow_private_networks: config.mediaAllowPrivateNetworks,
    sandbox_sender: config.sandboxSender,
    opt_out_replies: config.optOutReplies,
    sandbox: upstreams(config.sandbox),
    live: upstreams(config.live),
    breaker: config.breaker,
    sender_rates_per_second: config.senderRates,
    smpp: config.smpp,
  };
}
