import { Router, type RequestHandler } from 'express';

export interface BatchesRouterDeps {
  authenticateWrite: RequestHandler[];
  authenticateRead: RequestHandler[];
  body: RequestHandler[];
  sendBatch: RequestHandler;
  getBatch: RequestHandler;
}

/** Batch sends (docs/messages.md#batch-sends). */
export function batchesRouter(deps: BatchesRouterDeps): Router {
  const router = Router();
  router.post('/v1/messages/batch', ...deps.authenticateWrite, ...deps.body, deps.sendBatch);
  router.get('/v1/batches/:id', ...deps.authenticateRead, deps.getBatch);
  return router;
}
