import express, { type Express, type ErrorRequestHandler, type Router } from 'express';
import type { Logger } from '../support/json-logger';

/**
 * Mounts the routers in order. The /sim and health routes go first so the Cloud API's
 * `/{version}/{id}/...` patterns never shadow them.
 */
export function createHttpApp(routers: Router[], logger: Logger): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  for (const router of routers) app.use(router);
  app.use((req, res) => {
    res.status(404).json({ error: { code: 404, message: `No route for ${req.method} ${req.path}` } });
  });
  const lastResort: ErrorRequestHandler = (err, _req, res, _next) => {
    logger.error('unhandled http error', { error: String(err) });
    if (!res.headersSent) res.status(500).json({ error: { code: 500, message: 'internal error' } });
  };
  app.use(lastResort);
  return app;
}
