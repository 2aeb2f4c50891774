import type { Queue } from 'bullmq';
import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import type { Scope } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';
import type { JobAdder, ProviderCallbackJob, SendLanes } from '@switchboard/queues';
import type { MetricsRegistry } from '@switchboard/runtime';
import { createApiKeysRepository, createNumbersRepository, createSecretCipher, type Db, type NumberRecord, type SecretCipher } from '@switchboard/store';
import { noReplicaAck, type ReplicaAck } from '@switchboard/queues';
import { createApiKeyAuthenticator, type ApiKeyAuthenticator } from '../auth/api-key.authenticator';
import type { BatchAdmission } from '../batches/batch-send.handler';
import { authenticate, requireScope } from '../auth/authenticate.middleware';
import type { GatewayConfig } from '../config';
import { createDependencyGuard, type DependencyGuard } from '../http/dependency-guard';
import { jsonBody } from '../http/json-body.middleware';
import { rateLimit, rateLimitInSendScript } from '../rate-limit/rate-limit.middleware';
import { createRateLimiter } from '../rate-limit/rate-limiter';
import { createLoadingCache } from '../support/loading-cache';

export interface GatewayDeps {
  config: Readonly<GatewayConfig>;
  logger: Logger;
  db: Db;
  redis: Redis;
  sendLanes: SendLanes;
  /** This app's partition's provider-callbacks queue (Bull Board shows it). */
  callbackQueue: Queue;
  /** Where verified callbacks are queued: by job id over every partition's queue. @defaultValue callbackQueue */
  callbackJobs?: JobAdder<ProviderCallbackJob>;
  /** `template-submit`: created templates wait here for the dispatcher to submit them upstream. */
  templateQueue: Queue;
  eventFanoutQueue: Queue;
  /**
   * The Redis key prefixes this app writes under: its queue partition's (every per-account key and queue) and
   * the shared tag's (upstream list, hang-up channel, console sign-in throttle), docs/storage-layout.md#redis-keys-and-cluster.
   * @defaultValue both `config.queuePrefix` (one partition)
   */
  prefixes?: { partition: string; shared: string };
  /** Batch admission, when the partitions' apps share it: a process admits as many batches as without partitions. @defaultValue one of its own */
  batchAdmission?: BatchAdmission;
  /** The API-key authenticator, when the partitions' apps share one cache of keys. @defaultValue one of its own */
  authenticator?: ApiKeyAuthenticator;
  metrics: MetricsRegistry;
  /**
   * What `/metrics` serves; with cluster workers, every worker's series merged (cluster/worker-metrics.ts).
   * @defaultValue metrics.collect
   */
  scrapeMetrics?: () => Promise<string>;
  /** True once shutdown began; `/readyz` then answers 503. */
  isDraining?: () => boolean;
  /** True while the cluster's other workers are still starting; `/readyz` then answers 503 (cluster/cluster-readiness.ts). */
  isStarting?: () => boolean;
  /**
   * Confirms the acceptance writes on REDIS_MIN_REPLICAS_ACK replicas before a 202 (docs/operations.md#redis-failover).
   * @defaultValue none (no WAIT)
   */
  replicaAck?: ReplicaAck;
  /** What confirms a provider callback's job, which goes to the partition of its job id; default `replicaAck`. */
  callbackReplicaAck?: ReplicaAck;
  clock?: () => number;
}

/** What every area of the gateway shares: its dependencies, the dependency guard and the authentication chains. */
export interface GatewayContext
  extends
    Required<Pick<GatewayDeps, 'clock' | 'replicaAck' | 'callbackReplicaAck'>>,
    Omit<GatewayDeps, 'clock' | 'replicaAck' | 'callbackReplicaAck' | 'prefixes' | 'authenticator'> {
  guard: DependencyGuard;
  /** The prefix of this app's queue partition. */
  prefix: string;
  /** The prefix of the keys every partition shares. */
  sharedPrefix: string;
  /** Authenticate, rate-limit, then require `scope`. */
  authenticated: (scope: Scope) => RequestHandler[];
  /** Message creation: the rate-limit decision is settled in the handler's own script (createSendMessageHandler). */
  authenticatedSend: RequestHandler[];
  /** Authenticate and rate-limit; the routers check their scopes themselves. */
  authOnly: RequestHandler[];
  /** A fresh JSON body parser with the gateway's body limit (docs/conventions.md: larger bodies get 413). */
  jsonBody: () => RequestHandler[];
  /** The account's numbers, cached so that sender resolution costs no query per request. */
  accountNumbers: (accountId: string) => Promise<NumberRecord[]>;
  secrets: SecretCipher;
}

/** 1 s: a revoked key stops working within a second (docs/authentication.md), while a busy key costs one lookup a second. */
export const KEY_CACHE_TTL_MS = 1_000;

/** The API-key check with its cache of keys; one per app, or one for every partition's app (serve-gateway.ts). */
export function createGatewayAuthenticator(db: Db, guard: DependencyGuard, clock: () => number): ApiKeyAuthenticator {
  const apiKeys = createApiKeysRepository(db);
  return createApiKeyAuthenticator({ findByHash: (hash) => apiKeys.findByHash(hash), guard, ttlMs: KEY_CACHE_TTL_MS, clock });
}

export function createGatewayContext(deps: GatewayDeps): GatewayContext {
  const { config, db, redis, clock = Date.now } = deps;
  const { prefixes = { partition: config.queuePrefix, shared: config.queuePrefix }, authenticator: sharedAuthenticator, ...rest } = deps;
  const guard = createDependencyGuard(deps.logger);
  const authenticator = sharedAuthenticator ?? createGatewayAuthenticator(db, guard, clock);
  const numbers = createNumbersRepository(db);
  const rateLimiter = createRateLimiter(redis, prefixes.partition);
  const limiter = rateLimit(rateLimiter, config.rateLimitPerSecond, guard);
  return {
    ...rest,
    clock,
    replicaAck: deps.replicaAck ?? noReplicaAck,
    callbackReplicaAck: deps.callbackReplicaAck ?? deps.replicaAck ?? noReplicaAck,
    guard,
    prefix: prefixes.partition,
    sharedPrefix: prefixes.shared,
    authenticated: (scope) => [authenticate(authenticator), limiter, requireScope(scope)],
    authenticatedSend: [authenticate(authenticator), rateLimitInSendScript(rateLimiter, config.rateLimitPerSecond, guard), requireScope('messages:write')],
    authOnly: [authenticate(authenticator), limiter],
    jsonBody: () => jsonBody(config.bodyLimitBytes),
    accountNumbers: createLoadingCache({
      load: (accountId) => guard('store', () => numbers.listForAccount(accountId)),
      ttlMs: config.numbersCacheTtlMs,
      clock,
    }),
    secrets: createSecretCipher(config.secretsKeys),
  };
}
