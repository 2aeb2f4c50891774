import type { UnitPrices } from '@switchboard/domain';
import { EnvReader, type Env, readCommonConfig, redactUrlCredentials, type CommonConfig } from '@switchboard/runtime';

export interface ChatUpstreamConfig {
  baseUrl: string;
  accessToken: string;
  wabaId: string;
}

export interface RcsUpstreamConfig {
  baseUrl: string;
  accessToken: string;
  agentId: string;
}

export interface SmppUpstreamConfig {
  host: string;
  port: number;
  systemId: string;
  password: string;
}

export interface UpstreamSet {
  chat: ChatUpstreamConfig;
  rcs: RcsUpstreamConfig;
  smpp: SmppUpstreamConfig;
}

export interface DispatcherConfig extends CommonConfig {
  healthPort: number;
  healthHost: string;
  concurrency: number;
  reconcileTimeoutMs: number;
  stalledIntervalMs: number;
  lockDurationMs: number;
  /** Delay of a throttled send when the upstream named none (SMPP 0x58 never does). */
  throttleDelayMs: number;
  /** Runs of a callback job whose receipt matches no attempt yet, before it is logged and dropped. */
  receiptMatchAttempts: number;
  receiptRetryBackoffMs: number;
  /** Chat media links must be https (docs/chat.md#image-document-audio); local stacks serve test media over http. */
  chatMediaAllowHttp: boolean;
  /**
   * Media links may point at loopback and private networks (local stacks and tests, where the carrier
   * simulator serves media on 127.0.0.1); cloud metadata addresses are refused regardless.
   */
  mediaAllowPrivateNetworks: boolean;
  /** The gateway's sender for test keys without a chat number; replies to it open the sandbox window. */
  sandboxSender: string;
  /** How long the HEAD of a media link may take before the message fails as `media_unreachable`. */
  mediaCheckTimeoutMs: number;
  /** Confirmations sent after STOP and START (docs/routing.md#opt-out). */
  optOutReplies: { optOut: string; optIn: string };
  /** The unit prices of the confirmations' cost_units; the same PRICE_* as the gateway. */
  prices: UnitPrices;
  /** Upstreams for `sk_test_` keys: always the carrier simulator (docs/authentication.md#test-and-live-keys). */
  sandbox: UpstreamSet;
  /** Upstreams for live keys; each one defaults to its sandbox counterpart. */
  live: UpstreamSet;
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
  const simBaseUrl = 'http://127.0.0.1:8090';
  const sandbox: UpstreamSet = {
    chat: {
      baseUrl: read.string('SANDBOX_CHAT_API_BASE_URL', simBaseUrl),
      accessToken: SANDBOX_CREDENTIALS.chatAccessToken,
      wabaId: SANDBOX_CREDENTIALS.chatWabaId,
    },
    rcs: {
      baseUrl: read.string('SANDBOX_RBM_API_BASE_URL', simBaseUrl),
      accessToken: SANDBOX_CREDENTIALS.rbmAccessToken,
      agentId: SANDBOX_CREDENTIALS.rbmAgentId,
    },
    smpp: {
      host: read.string('SANDBOX_SMPP_HOST', '127.0.0.1'),
      port: read.int('SANDBOX_SMPP_PORT', 2775, { min: 1, max: 65535 }),
      systemId: SANDBOX_CREDENTIALS.smppSystemId,
      password: SANDBOX_CREDENTIALS.smppPassword,
    },
  };
  const live: UpstreamSet = {
    chat: {
      baseUrl: read.string('CHAT_API_BASE_URL', sandbox.chat.baseUrl),
      accessToken: read.string('CHAT_ACCESS_TOKEN', sandbox.chat.accessToken),
      wabaId: read.string('CHAT_WABA_ID', sandbox.chat.wabaId),
    },
    rcs: {
      baseUrl: read.string('RBM_API_BASE_URL', sandbox.rcs.baseUrl),
      accessToken: read.string('RBM_ACCESS_TOKEN', sandbox.rcs.accessToken),
      agentId: read.string('RBM_AGENT_ID', sandbox.rcs.agentId),
    },
    smpp: {
      host: read.string('SMPP_HOST', sandbox.smpp.host),
      port: read.int('SMPP_PORT', sandbox.smpp.port, { min: 1, max: 65535 }),
      systemId: read.string('SMPP_SYSTEM_ID', sandbox.smpp.systemId),
      password: read.string('SMPP_PASSWORD', sandbox.smpp.password),
    },
  };
  for (const [name, value] of Object.entries({
    SANDBOX_CHAT_API_BASE_URL: sandbox.chat.baseUrl,
    SANDBOX_RBM_API_BASE_URL: sandbox.rcs.baseUrl,
    CHAT_API_BASE_URL: live.chat.baseUrl,
    RBM_API_BASE_URL: live.rcs.baseUrl,
  })) {
    if (!/^https?:\/\/[^\s/]+/.test(value)) read.problems.push(`${name} must be an http(s) URL, got "${value}"`);
  }
  const config: DispatcherConfig = {
    ...readCommonConfig(read),
    healthPort: read.int('HEALTH_PORT', 8081, { min: 0, max: 65535 }),
    healthHost: read.string('HEALTH_HOST', '127.0.0.1'),
    concurrency: read.int('DISPATCH_CONCURRENCY', 32, { min: 1, max: 10_000 }),
    reconcileTimeoutMs: read.int('RECONCILE_TIMEOUT_MS', 30_000, { min: 0 }),
    stalledIntervalMs: read.int('STALLED_INTERVAL_MS', 30_000, { min: 100 }),
    lockDurationMs: read.int('LOCK_DURATION_MS', 30_000, { min: 100 }),
    throttleDelayMs: read.int('THROTTLE_DELAY_MS', 1_000, { min: 1 }),
    receiptMatchAttempts: read.int('RECEIPT_MATCH_ATTEMPTS', 5, { min: 1, max: 100 }),
    receiptRetryBackoffMs: read.int('RECEIPT_RETRY_BACKOFF_MS', 500, { min: 1 }),
    chatMediaAllowHttp: read.bool('CHAT_MEDIA_ALLOW_HTTP', false),
    mediaAllowPrivateNetworks: read.bool('MEDIA_ALLOW_PRIVATE_NETWORKS', false),
    sandboxSender: read.string('SANDBOX_SENDER', '+14155550100'),
    mediaCheckTimeoutMs: read.int('MEDIA_CHECK_TIMEOUT_MS', 5_000, { min: 100, max: 60_000 }),
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
  };
  return read.finish('dispatcher', config);
}

/** The non-secret values, logged once at start-up. */
export function describeConfig(config: DispatcherConfig): Record<string, unknown> {
  const upstreams = (set: UpstreamSet) => ({
    chat: set.chat.baseUrl,
    rcs: set.rcs.baseUrl,
    rcs_agent: set.rcs.agentId,
    smpp: `${set.smpp.host}:${set.smpp.port}`,
    smpp_system_id: set.smpp.systemId,
  });
  return {
    redis_url: redactUrlCredentials(config.redisUrl),
    queue_prefix: config.queuePrefix,
    db_pool_size: config.dbPoolSize,
    health: `${config.healthHost}:${config.healthPort}`,
    concurrency: config.concurrency,
    reconcile_timeout_ms: config.reconcileTimeoutMs,
    stalled_interval_ms: config.stalledIntervalMs,
    lock_duration_ms: config.lockDurationMs,
    throttle_delay_ms: config.throttleDelayMs,
    receipt_match_attempts: config.receiptMatchAttempts,
    chat_media_allow_http: config.chatMediaAllowHttp,
    media_allow_private_networks: config.mediaAllowPrivateNetworks,
    sandbox_sender: config.sandboxSender,
    media_check_timeout_ms: config.mediaCheckTimeoutMs,
    opt_out_replies: config.optOutReplies,
    sandbox: upstreams(config.sandbox),
    live: upstreams(config.live),
  };
}
