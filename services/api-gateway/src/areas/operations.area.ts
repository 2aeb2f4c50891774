import type { Router } from 'express';
import { apiDocsRouter } from '../routes/api-docs.route';
import { operationsRouter } from '../routes/operations.route';
import type { GatewayContext } from './gateway-context';

/** /healthz, /readyz and /metrics (docs/observability.md), then the OpenAPI document and /docs (docs/api.md). */
export function createOperationsAndDocsRouters(ctx: GatewayContext): Router[] {
  const { config, redis, db } = ctx;
  const operations = operationsRouter({
    checks: { redis: () => redis.ping(), store: () => db.ping() },
    metrics: ctx.scrapeMetrics ? { collect: ctx.scrapeMetrics } : ctx.metrics,
    checkTimeoutMs: config.redisCommandTimeoutMs,
    isDraining: ctx.isDraining,
    isStarting: ctx.isStarting,
  });
  return [operations, apiDocsRouter({ publicBaseUrl: config.publicBaseUrl })];
}
