import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * One route run as a plain chain of handlers, placed first in the application: a request it matches skips
 * express's layer-by-layer walk (each app-level middleware, each router and route it passes through is a
 * path match and a `next` hop), which was about a tenth of the gateway's CPU on `POST /v1/messages`
 * (docs/performance/accept.md#accepting-messages-benchacceptmjs). `handlers` must be the same middlewares, in the same order, the
 * request would meet on the regular route, so the answer does not change; only the exact path (query
 * string allowed) takes this way, anything else (other case, trailing slash) goes on to the regular route.
 * Errors go to the application's error middlewares, as a regular route's do.
 */
export function fastRoute(method: string, path: string, handlers: readonly RequestHandler[]): RequestHandler {
  const withQuery = `${path}?`;
  // What the metrics middleware reads as the route template (http-metrics.middleware.ts).
  const route = Object.freeze({ path });
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== method || (req.url !== path && !req.url.startsWith(withQuery))) return next();
    (req as { route?: unknown }).route = route;
    let index = 0;
    const step = (error?: unknown): void => {
      if (error) return next(error);
      const handler = handlers[index++];
      if (!handler) return next();
      try {
        // The same promise handling as express 5's own layers: a rejection becomes next(error).
        const returned: unknown = handler(req, res, step);
        if (returned instanceof Promise) returned.catch((rejection: unknown) => step(rejection ?? new Error('Rejected promise')));
      } catch (thrown) {
        step(thrown);
      }
    };
    step();
  };
}
