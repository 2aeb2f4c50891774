import express, { type ErrorRequestHandler, type Router } from 'express';
import { sendProblem } from '../http/problem';
import type { SendLogStore } from '../state/send-log.store';
import type { TemplateStore } from '../state/template.store';
import { createInboundHandler, type InboundDeps } from './inbound.route';
import { createMediaHandler } from './media.route';
import { createLateReceiptHandler, createSmsReceiptPlanHandlers } from './receipts.route';
import type { SmsReceiptPlanStore } from '../state/sms-receipt-plan.store';

const queryText = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** The simulator's own test-support API under /sim: never part of any upstream. */
export function createSimApiRouter(deps: InboundDeps & { sends: SendLogStore; templates: TemplateStore; smsReceiptPlans: SmsReceiptPlanStore }): Router {
  const router = express.Router();
  router.post('/sim/inbound', express.json({ limit: '256kb' }), createInboundHandler(deps));
  router.post('/sim/receipts', express.json({ limit: '16kb' }), createLateReceiptHandler(deps));
  const smsPlans = createSmsReceiptPlanHandlers({ plans: deps.smsReceiptPlans });
  router.post('/sim/sms-receipt-plans', express.json({ limit: '16kb' }), smsPlans.set);
  router.post('/sim/sms-receipt-plans/release', express.json({ limit: '16kb' }), smsPlans.release);
  router.get('/sim/sends', (req, res) => {
    const data = deps.sends.list({
      channel: queryText(req.query.channel),
      to: queryText(req.query.to),
      client_ref: queryText(req.query.client_ref),
    });
    res.json({ data });
  });
  router.delete('/sim/sends', (_req, res) => {
    deps.sends.clear();
    res.status(204).end();
  });
  router.get('/sim/templates', (_req, res) => {
    res.json({ data: deps.templates.list() });
  });
  router.get('/sim/media/:name', createMediaHandler());

  const onError: ErrorRequestHandler = (err, _req, res, _next) => {
    if (res.headersSent) return;
    const status = (err as { status?: number }).status;
    if (status && status >= 400 && status < 500) return sendProblem(res, 400, 'validation_failed', (err as Error).message);
    deps.logger.error('sim api handler failed', { error: String(err) });
    sendProblem(res, 500, 'internal', 'unexpected error');
  };
  router.use('/sim', onError);
  return router;
}
