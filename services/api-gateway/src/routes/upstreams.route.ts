import { Router, type RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { createUpstreamBreakerStore } from '@switchboard/shared-state';
import type { DependencyGuard } from '../http/dependency-guard';

export interface UpstreamsRouteDeps {
  redis: Redis;
  prefix: string;
  guard: DependencyGuard;
  /** Authentication and the `admin` scope. */
  auth: RequestHandler[];
}

/** The dispatchers trim each rolling window to BREAKER_POLICY.windowSize (services/dispatcher); this only bounds the read. */
const MAX_WINDOW = 1_000;

/**
 * `GET /v1/upstreams` (docs/api.md#get-v1upstreams): every upstream the dispatchers were configured with,
 * as they published it to Redis, with its shared circuit breaker state. The gateway has no upstream
 * configuration of its own, so the list cannot drift from what the dispatchers actually use.
 */
export function createUpstreamsRouter(deps: UpstreamsRouteDeps): Router {
  const router = Router();
  const breakers = createUpstreamBreakerStore({ redis: deps.redis, prefix: deps.prefix, windowSize: MAX_WINDOW });
  router.get('/v1/upstreams', ...deps.auth, async (_req, res) => {
    const data = await deps.guard('redis', async () => {
      const upstreams = await breakers.published();
      return Promise.all(
        upstreams.map(async (u) => {
          const breaker = await breakers.read(u.name);
          const failures = breaker.recent.filter((ok) => !ok).length;
          return {
            name: u.name,
            channel: u.channel,
            mode: u.mode,
            priority: u.priority,
            weight: u.weight,
            state: breaker.state,
            recent_calls: breaker.recent.length,
            error_rate: breaker.recent.length === 0 ? 0 : Math.round((failures / breaker.recent.length) * 1000) / 1000,
            opened_at: breaker.state === 'closed' || breaker.openedAt === 0 ? null : new Date(breaker.openedAt).toISOString(),
          };
        }),
      );
    });
    res.json({ data });
  });
  return router;
}
