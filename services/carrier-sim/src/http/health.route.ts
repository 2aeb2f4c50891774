import express, { type Router } from 'express';

/** `/healthz` answers while the process lives; `/readyz` only once both the HTTP and SMPP listeners are up. */
export function createHealthRouter(isReady: () => boolean): Router {
  const router = express.Router();
  router.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  router.get('/readyz', (_req, res) => {
    const ready = isReady();
    res.status(ready ? 200 : 503).json({ ok: ready });
  });
  return router;
}
