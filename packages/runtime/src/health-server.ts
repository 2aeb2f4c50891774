import { createServer, type Server } from 'node:http';
import type { MetricsRegistry } from './metrics';

/**
 * `/healthz` (the process lives), `/readyz` (its dependencies answer) and `/metrics` for the workers,
 * which have no API of their own (docs/running.md#health-readiness-and-metrics).
 */
export function startHealthServer(opts: { port: number; host?: string; ready: () => Promise<boolean>; metrics?: MetricsRegistry }): Promise<Server> {
  const server = createServer((req, res) => {
    void (async () => {
      if (req.url === '/healthz') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      } else if (req.url === '/readyz') {
        const ok = await opts.ready().catch(() => false);
        res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify({ status: ok ? 'ready' : 'unavailable' }));
      } else if (req.url === '/metrics' && opts.metrics) {
        res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(await opts.metrics.collect());
      } else {
        res.writeHead(404).end();
      }
    })();
  });
  return new Promise((resolve) => server.listen(opts.port, opts.host ?? '127.0.0.1', () => resolve(server)));
}
