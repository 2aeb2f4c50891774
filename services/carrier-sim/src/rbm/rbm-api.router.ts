import express, { type ErrorRequestHandler, type RequestHandler, type Router } from 'express';
import { requireBearer } from '../http/bearer-auth';
import { createFaultGate } from '../sim/fault-gate.middleware';
import type { FaultSwitchStore } from '../state/fault-switch.store';
import { createAgentMessageHandlers, type AgentMessagesDeps } from './agent-messages.route';
import { sendGoogleError } from './google-errors';
import type { FastSendRoute } from '../http/fast-sends.listener';

/** The RBM API v1 surface: capability check and agentMessages, Bearer-authenticated, with Google-style errors. */
export function createRbmApiRouter(deps: AgentMessagesDeps & { accessToken: string; faults?: FaultSwitchStore }): Router {
  const router = express.Router();
  const auth = requireBearer(deps.accessToken, (res) =>
    sendGoogleError(res, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token.'),
  );
  const handlers = createAgentMessageHandlers(deps);
  router.get('/v1/phones/:phone/capabilities', auth, handlers.capabilities);
  const faults: RequestHandler = deps.faults
    ? createFaultGate({
        channel: 'rcs',
        faults: deps.faults,
        scheduler: deps.scheduler,
        logger: deps.logger,
        refuse: (res) => sendGoogleError(res, 'UNAVAILABLE', 'The service is currently unavailable.'),
      })
    : (_req, _res, next) => next();
  router.post('/v1/phones/:phone/agentMessages', auth, faults, express.json({ limit: '1mb' }), handlers.send);

  const onError: ErrorRequestHandler = (err, _req, res, _next) => {
    if (res.headersSent) return;
    const status = (err as { status?: number }).status;
    if (status && status >= 400 && status < 500) {
      sendGoogleError(res, 'INVALID_ARGUMENT', `Invalid JSON payload received. ${(err as Error).message}`);
      return;
    }
    deps.logger.error('rbm api handler failed', { error: String(err) });
    sendGoogleError(res, 'INTERNAL', 'Internal error encountered.');
  };
  router.use(onError);
  return router;
}

const AGENT_MESSAGES_PATH = /^\/v1\/phones\/([^/]+)\/agentMessages$/;

/** The send endpoint for the fast path (http/fast-sends.listener.ts): the same handler, the same error shapes. */
export function createRbmFastSendRoute(deps: AgentMessagesDeps & { accessToken: string }): FastSendRoute {
  return {
    channel: 'rcs',
    accessToken: deps.accessToken,
    match(path) {
      const found = AGENT_MESSAGES_PATH.exec(path);
      if (!found) return null;
      try {
        return { phone: decodeURIComponent(found[1]) };
      } catch {
        return null; // express answers a malformed escape
      }
    },
    handle: createAgentMessageHandlers(deps).send,
    badJson: (res, message) => sendGoogleError(res, 'INVALID_ARGUMENT', `Invalid JSON payload received. ${message}`),
    internalError: (res) => sendGoogleError(res, 'INTERNAL', 'Internal error encountered.'),
  };
}
