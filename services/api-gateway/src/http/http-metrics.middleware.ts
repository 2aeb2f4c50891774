import type { RequestHandler } from 'express';
import type { MetricsRegistry } from '@switchboard/runtime';

/**
 * Request counter and latency histogram by route template and status. Unmatched paths share one label
 * so that random URLs cannot grow the series without bound.
 */
export function httpMetricsMiddleware(metrics: MetricsRegistry): RequestHandler {
  const requests = metrics.counter('http_requests_total', 'HTTP requests by route, method and status.');
  const latency = metrics.histogram('http_request_duration_seconds', 'HTTP request latency by route, method and status.');
  const replays = metrics.counter(
    'switchboard_idempotency_replays_total',
    'Requests answered with the stored first answer of their Idempotency-Key, by route.',
  );
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const routePath = (req.route as { path?: unknown } | undefined)?.path;
      const route = typeof routePath === 'string' ? `${req.baseUrl}${routePath}` : 'unmatched';
      const labels = { route, method: req.method, status: String(res.statusCode) };
      requests.inc(labels);
      latency.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      // The routes mark a replay with this header (docs/api.md#idempotency-key); counting it here covers every route.
      if (res.getHeader('idempotent-replayed') === 'true') replays.inc({ route });
    });
    next();
  };
}
