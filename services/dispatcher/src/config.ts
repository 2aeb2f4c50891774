import type { UnitPrices } from '@switchboard/domain';
import {
  EnvReader,
  type Env,
  readCommonConfig,
  readJobLock,
  readTargetGuard,
  readUnitPrices,
  redactUrlCredentials,
  SANDBOX_SENDER,
  type CommonConfig,
  type TargetGuardSettings,
} from '@switchboard/runtime';
import type { ChatUpstreamConfig } from './upstreams/chat-upstreams.config';
import type { RcsUpstreamConfig } from './upstreams/rcs-upstreams.config';
import { readUpstreamSets, type UpstreamSet } from './upstreams/upstream-sets.config';

export type { ChatUpstreamConfig, RcsUpstreamConfig, UpstreamSet };

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
  /**
   * The target guard of chat media links (docs/webhooks.md#target-guard-ssrf): https only and no private networks unless
   * opened, for local stacks and tests whose media the carrier simulator serves on 127.0.0.1; metadata addresses never.
   */
  targets: TargetGuardSettings;
  /** The gateway's sender for test keys without a chat number; replies to it open the sandbox window. */
  sandboxSender: string;
  /** Confirmations sent after STOP and START (docs/routing.md#opt-out). */
  optOutReplies: { optOut: string; optIn: string };
  /** The unit prices of the confirmations' cost_units; the same PRICE_* as the gateway. */
  prices: UnitPrices;
  /** Upstreams for `sk_test_` keys: always the carrier simulator (docs/authentication.md#test-and-live-keys). */
  sandbox: UpstreamSet;
  /** Upstreams for live keys; each one defaults to its sandbox counterpart. Each carries its binds and sender rate. */
  live: UpstreamSet;
}

/** Twilio's wording for its default opt-out confirmations, which customers and carriers already know. */
const DEFAULT_OPT_OUT_REPLIES = {
  optOut: 'You have successfully been unsubscribed. You will not receive any more messages from this number. Reply START to resubscribe.',
  optIn: 'You have successfully been re-subscribed to messages from this number. Reply STOP to unsubscribe.',
} as const;

/**
 * OPT_OUT_REPLIES, `{"stop": "…", "start": "…"}`: the confirmation of STOP and of START, each defaulting to Twilio's
 * wording (docs/routing.md#opt-out). A problem naming the key goes to `read`.
 */
function readOptOutReplies(read: EnvReader): { optOut: string; optIn: string } {
  const replies: { optOut: string; optIn: string } = { ...DEFAULT_OPT_OUT_REPLIES };
  const keys = { stop: 'optOut', start: 'optIn' } as const;
  for (const [key, text] of Object.entries(read.jsonObject('OPT_OUT_REPLIES', 'such as {"stop":"…","start":"…"}') ?? {})) {
    if (!(key in keys)) read.problems.push(`OPT_OUT_REPLIES.${key} is not a known key (stop, start)`);
    else if (typeof text !== 'string' || text.trim() === '') read.problems.push(`OPT_OUT_REPLIES.${key} must be a non-empty string`);
    else replies[keys[key as keyof typeof keys]] = text;
  }
  return replies;
}

export function loadConfig(env: Env = process.env): Readonly<DispatcherConfig> {
  const read = new EnvReader(env);
  const { sandbox, live } = readUpstreamSets(read);
  const config: DispatcherConfig = {
    ...readCommonConfig(read),
    healthPort: read.int('PORT', 8081, { min: 0, max: 65535 }),
    healthHost: read.string('HOST', '127.0.0.1'),
    concurrency: read.int('DISPATCH_CONCURRENCY', 32, { min: 1, max: 10_000 }),
    bulkConcurrency: read.int('DISPATCH_BULK_CONCURRENCY', 32, { min: 1, max: 10_000 }),
    reconcileTimeoutMs: read.int('RECONCILE_TIMEOUT_MS', 30_000, { min: 0 }),
    ...readJobLock(read),
    fallbackTimeoutSeconds: read.int('FALLBACK_TIMEOUT_SECONDS', 60, { min: 1, max: 86_400 }),
    targets: readTargetGuard(read),
    sandboxSender: SANDBOX_SENDER,
    optOutReplies: readOptOutReplies(read),
    prices: readUnitPrices(read),
    sandbox,
    live,
  };
  return read.finish('dispatcher', config);
}

/** The non-secret values, logged once at start-up. */
export function describeConfig(config: DispatcherConfig): Record<string, unknown> {
  const upstreams = (set: UpstreamSet) => ({
    chat: set.chat.map((u) => ({
      name: u.name,
      base_url: u.baseUrl,
      waba_id: u.wabaId,
      priority: u.priority,
      weight: u.weight,
      sender_rate_per_second: u.senderRate,
    })),
    rcs: set.rcs.map((u) => ({
      name: u.name,
      base_url: u.baseUrl,
      agent_id: u.agentId,
      priority: u.priority,
      weight: u.weight,
      sender_rate_per_second: u.senderRate,
    })),
    sms: set.sms.map((u) => ({
      name: u.name,
      smpp: `${u.host}:${u.port}`,
      system_id: u.systemId,
      priority: u.priority,
      weight: u.weight,
      binds: u.binds,
      window: u.window,
      sender_rate_per_second: u.senderRate,
    })),
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
    targets: config.targets,
    sandbox_sender: config.sandboxSender,
    opt_out_replies: config.optOutReplies,
    sandbox: upstreams(config.sandbox),
    live: upstreams(config.live),
  };
}
