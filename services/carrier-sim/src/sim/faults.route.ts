import express, { type Router } from 'express';
import { sendProblem } from '../http/problem';
import { FAULT_CHANNELS, type FaultChannel, type FaultMode, type FaultSwitchStore } from '../state/fault-switch.store';

const MODES: readonly FaultMode[] = ['down', 'slow', 'errors'];

/**
 * `POST /sim/faults`, `GET /sim/faults` and `DELETE /sim/faults[?channel=]` (docs/sandbox.md#faults-at-run-time):
 * one fault per channel of this simulator instance.
 */
export function createFaultsRouter(deps: { faults: FaultSwitchStore }): Router {
  const router = express.Router();
  const isChannel = (value: unknown): value is FaultChannel => FAULT_CHANNELS.includes(value as FaultChannel);
  router.post('/sim/faults', express.json({ limit: '16kb' }), (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (!isChannel(body.channel)) return sendProblem(res, 400, 'validation_failed', `channel: one of ${FAULT_CHANNELS.join(', ')}`);
    if (!MODES.includes(body.mode as FaultMode)) return sendProblem(res, 400, 'validation_failed', `mode: one of ${MODES.join(', ')}`);
    const delayMs = body.delay_ms ?? 2_000;
    if (typeof delayMs !== 'number' || !Number.isInteger(delayMs) || delayMs < 0 || delayMs > 600_000) {
      return sendProblem(res, 400, 'validation_failed', 'delay_ms: an integer from 0 to 600000');
    }
    const errorRate = body.error_rate ?? 0.5;
    if (typeof errorRate !== 'number' || errorRate < 0 || errorRate > 1) return sendProblem(res, 400, 'validation_failed', 'error_rate: a number from 0 to 1');
    const fault = { mode: body.mode as FaultMode, delayMs, errorRate };
    deps.faults.set(fault, body.channel);
    res.json({ channel: body.channel, mode: fault.mode, delay_ms: fault.delayMs, error_rate: fault.errorRate });
  });
  router.get('/sim/faults', (_req, res) => {
    res.json({ data: deps.faults.all().map(({ channel, fault }) => ({ channel, mode: fault.mode, delay_ms: fault.delayMs, error_rate: fault.errorRate })) });
  });
  router.delete('/sim/faults', (req, res) => {
    const channel = req.query.channel;
    if (channel !== undefined && !isChannel(channel)) return sendProblem(res, 400, 'validation_failed', `channel: one of ${FAULT_CHANNELS.join(', ')}`);
    deps.faults.clear(channel);
    res.status(204).end();
  });
  return router;
}
