import { AsyncResource } from 'node:async_hooks';
import type { RequestHandler } from 'express';
import { runInRequestTrace, tracingEnabled } from '@switchboard/queues';

/**
 * Runs the rest of the request in a server span under its W3C `traceparent` (or a new trace), so the
 * jobs it enqueues carry it on (docs/observability.md#traces). A malformed header starts a new trace, as
 * the W3C spec asks, instead of failing the request. A no-op while tracing is off.
 */
export function traceContextMiddleware(): RequestHandler {
  return (req, res, next) => {
    if (!tracingEnabled()) return next();
    const header = req.headers.traceparent;
    runInRequestTrace(Array.isArray(header) ? header[0] : header, `${req.method} request`, (end) => {
      res.once('finish', () => end(res.statusCode));
      res.once('close', () => end());
      // The body's `data` and `end` events come from the socket, outside this context; bound here, the
      // body readers (and the handlers they call next) stay in the request's trace.
      req.emit = AsyncResource.bind(req.emit.bind(req));
      next();
    });
  };
}
