import express, { type Router } from 'express';
import { sendProblem } from '../http/problem';
import type { FaultMode, FaultSwitchStore } from '../state/fault-switch.store';

const MODES: readonly FaultMode[] = ['down', 'slow', 'errors'];

/** `POST /sim/faults` and `DELETE /sim/faults` (docs/sandbox.md#faults-at-run-time). Only the SMSC has faults. */
export function createFaultsRouter(deps: { faults: FaultSwitchStore }): Router {
  const router = express.Router();
  router.post('/sim/faults', express.json({ limit: '16kb' }), (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (body.channel !== 'sms') return sendProblem(res, 400, 'validation_failed', 'channel: only "sms" has run-time faults');
    if (!MODES.includes(body.mode as FaultMode)) return sendProblem(res, 400, 'validation_failed', `mode: one of ${MODES.join(', ')}`);
    const delayMs = body.delay_ms ?? 2_000;
    if (typeof delayMs !== 'number' || !Number.isInteger(delayMs) || delayMs < 0 || delayMs > 600_000) {
      return sendProblem(res, 400, 'validation_failed', 'delay_ms: an integer from 0 to 600000');
    }
    const errorRate = body.error_rate ?? 0.5;
    if (typeof errorRate !== 'number' || errorRate < 0 || errorRate > 1) return sendProblem(res, 400, 'validation_failed', 'error_rate: a number from 0 to 1');
    const fault = { mode: body.mode as FaultMode, delayMs, errorRate };
    deps.faults.set(fault);
    res.json({ channel: 'sms', mode: fault.mode, delay_ms: fault.delayMs, error_rate: fault.errorRate });
  });
  router.get('/sim/faults', (_req, res) => {
    const fault = deps.faults.current();
    res.json({ data: fault ? [{ channel: 'sms', mode: fault.mode, delay_ms: fault.delayMs, error_rate: fault.errorRate }] : [] });
  });
  router.delete('/sim/faults', (_req, res) => {
    deps.faults.clear();
    res.status(204).end();
  });
  return router;
}
