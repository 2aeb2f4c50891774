import type { Queue } from 'bullmq';
import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import type { Scope } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';
import type { SendLanes } from '@switchboard/queues';
import type { MetricsRegistry } from '@switchboard/runtime';
import { createApiKeysRepository, createNumbersRepository, createSecretCipher, type Db, type NumberRecord, type SecretCipher } from '@switchboard/store';
import { createApiKeyAuthenticator } from '../auth/api-key.authenticator';
import { authenticate, requireScope } from '../auth/authenticate.middleware';
import type { GatewayConfig } from '../config';
import { createDependencyGuard, type DependencyGuard } from '../http/dependency-guard';
import { jsonBody } from '../http/json-body.middleware';
import { rateLimit, rateLimitInSendScript } from '../rate-limit/rate-limit.middleware';
import { createRateLimiter } from '../rate-limit/rate-limiter';
import { noReplicaAck, type ReplicaAck } from '../replication/replica-ack';
import { createLoadingCache } from '../support/loading-cache';

export interface GatewayDeps {
  config: Readonly<GatewayConfig>;
  logger: Logger;
  db: Db;
  redis: Redis;
  sendLanes: SendLanes;
  callbackQueue: Queue;
  /** `template-submit`: created templates wait here for the dispatcher to submit them upstream. */
  templateQueue: Queue;
  eventFanoutQueue: Queue;
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
  clock?: () => number;
}

/** What every area of the gateway shares: its dependencies, the dependency guard and the authentication chains. */
export interface GatewayContext extends Required<Pick<GatewayDeps, 'clock' | 'replicaAck'>>, Omit<GatewayDeps, 'clock' | 'replicaAck'> {
  guard: DependencyGuard;
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

export function createGatewayContext(deps: GatewayDeps): GatewayContext {
  const { config, db, redis, clock = Date.now } = deps;
  const guard = createDependencyGuard(deps.logger);
  const apiKeys = createApiKeysRepository(db);
  const authenticator = createApiKeyAuthenticator({
    findByHash: (hash) => apiKeys.findByHash(hash),
    guard,
    ttlMs: KEY_CACHE_TTL_MS,
    clock,
  });
  const numbers = createNumbersRepository(db);
  const rateLimiter = createRateLimiter(redis, config.queuePrefix);
  const limiter = rateLimit(rateLimiter, config.rateLimitPerSecond, guard);
  return {
    ...deps,
    clock,
    replicaAck: deps.replicaAck ?? noReplicaAck,
    guard,
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
