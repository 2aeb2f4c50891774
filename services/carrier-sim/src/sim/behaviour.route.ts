import express, { type ErrorRequestHandler, type Router } from 'express';
import { sendProblem } from '../http/problem';
import type { Logger } from '../support/json-logger';
import { SIM_BEHAVIOUR_LIMITS, type SimBehaviour, type SimBehaviourStore } from '../state/sim-behaviour.store';

const asJson = (b: Readonly<SimBehaviour>) => ({
  receipt_delay_ms: b.receiptDelayMs,
  enforce_chat_window: b.enforceChatWindow,
  receipt_backlog_max: b.receiptBacklogMax,
});

const isIntIn = (value: unknown, { min, max }: { min: number; max: number }): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

/**
 * `GET /sim/behaviour` and `PUT /sim/behaviour` (docs/sandbox.md#behaviour-at-run-time): the simulator's knobs, set by a
 * test or bench once the simulator is up. A PUT names only the fields it changes; a bad one changes nothing.
 */
export function createBehaviourRouter(deps: { behaviour: SimBehaviourStore; logger?: Logger }): Router {
  const router = express.Router();
  router.get('/sim/behaviour', (_req, res) => {
    res.json(asJson(deps.behaviour.current));
  });
  router.put('/sim/behaviour', express.json({ limit: '16kb' }), (req, res) => {
    const body: unknown = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return sendProblem(res, 400, 'validation_failed', 'body: a JSON object with any of receipt_delay_ms, enforce_chat_window, receipt_backlog_max');
    }
    const fields = body as Record<string, unknown>;
    const changes: Partial<SimBehaviour> = {};
    for (const [field, value] of Object.entries(fields)) {
      if (field === 'receipt_delay_ms') {
        const { min, max } = SIM_BEHAVIOUR_LIMITS.receiptDelayMs;
        if (!isIntIn(value, SIM_BEHAVIOUR_LIMITS.receiptDelayMs))
          return sendProblem(res, 400, 'validation_failed', `receipt_delay_ms: an integer from ${min} to ${max}`);
        changes.receiptDelayMs = value;
      } else if (field === 'enforce_chat_window') {
        if (typeof value !== 'boolean') return sendProblem(res, 400, 'validation_failed', 'enforce_chat_window: true or false');
        changes.enforceChatWindow = value;
      } else if (field === 'receipt_backlog_max') {
        const { min, max } = SIM_BEHAVIOUR_LIMITS.receiptBacklogMax;
        if (!isIntIn(value, SIM_BEHAVIOUR_LIMITS.receiptBacklogMax))
          return sendProblem(res, 400, 'validation_failed', `receipt_backlog_max: an integer from ${min} to ${max}`);
        changes.receiptBacklogMax = value;
      } else {
        return sendProblem(res, 400, 'validation_failed', `${field}: not a known field (receipt_delay_ms, enforce_chat_window, receipt_backlog_max)`);
      }
    }
    const now = asJson(deps.behaviour.update(changes));
    deps.logger?.info('behaviour changed', now);
    res.json(now);
  });
  // A body that is not JSON is the caller's mistake, answered as the other bad input is.
  const badBody: ErrorRequestHandler = (err, _req, res, next) => {
    const status = (err as { status?: number }).status;
    if (res.headersSent || !status || status >= 500) return next(err);
    sendProblem(res, 400, 'validation_failed', `body: ${(err as Error).message}`);
  };
  router.use('/sim/behaviour', badBody);
  return router;
}
