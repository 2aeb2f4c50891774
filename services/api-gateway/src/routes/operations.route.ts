import { Router } from 'express';
import { UnavailableError } from '@switchboard/domain';
import type { MetricsRegistry } from '@switchboard/runtime';

export interface OperationsDeps {
  /** Each check resolves when its dependency answers. */
  checks: Record<string, () => Promise<unknown>>;
  /** A registry, or anything that renders one (the cluster workers' merged scrape). */
  metrics: Pick<MetricsRegistry, 'collect'>;
  /** A check slower than this counts as failed, so /readyz itself never hangs. */
  checkTimeoutMs: number;
  /** True once shutdown began: the instance is leaving, so it is not ready whatever its dependencies say. */
  isDraining?: () => boolean;
  /** True while the gateway's other cluster workers are still starting: not ready yet. */
  isStarting?: () => boolean;
}

function withTimeout(check: () => Promise<unknown>, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    check()
      .then(
        () => resolve(true),
        () => resolve(false),
      )
      .finally(() => clearTimeout(timer));
  });
}

/** `/healthz` (the process lives), `/readyz` (Redis and the store answer), `/metrics` (docs/running.md#health-readiness-and-metrics). */
export function operationsRouter({ checks, metrics, checkTimeoutMs, isDraining = () => false, isStarting = () => false }: OperationsDeps): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    if (isDraining()) throw new UnavailableError('Not ready: shutting down.');
    if (isStarting()) throw new UnavailableError('Not ready: gateway workers still starting.');
    const names = Object.keys(checks);
    const results = await Promise.all(names.map((name) => withTimeout(checks[name], checkTimeoutMs)));
    // Checked again after the checks: no answer written after the signal says ready.
    if (isDraining()) throw new UnavailableError('Not ready: shutting down.');
    const failing = names.filter((_, i) => !results[i]);
    if (failing.length > 0) throw new UnavailableError(`Not ready: ${failing.join(', ')} did not answer.`);
    res.json({ status: 'ready' });
  });
  router.get('/metrics', async (_req, res) => {
    res.type('text/plain; version=0.0.4').send(await metrics.collect());
  });
  return router;
}
