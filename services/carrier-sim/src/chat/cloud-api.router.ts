import express, { type ErrorRequestHandler, type RequestHandler, type Router } from 'express';
import type { Logger } from '../support/json-logger';
import { requireBearer } from '../http/bearer-auth';
import { createSendChatMessageHandler, type ChatMessagesDeps } from './chat-messages.route';
import { sendGraphError } from './graph-errors';
import { createFaultGate } from '../sim/fault-gate.middleware';
import type { FaultSwitchStore } from '../state/fault-switch.store';
import { createMessageTemplateHandlers, type MessageTemplatesDeps } from './message-templates.route';
import type { FastSendRoute } from '../http/fast-sends.listener';

/**
 * The WhatsApp Cloud API surface: `/{version}/{phone-number-id}/messages` and
 * `/{version}/{waba-id}/message_templates`, Bearer-authenticated, with Graph-style errors.
 */
export function createCloudApiRouter(
  deps: ChatMessagesDeps & MessageTemplatesDeps & { accessToken: string; logger: Logger; faults?: FaultSwitchStore },
): Router {
  const router = express.Router();
  // Any Graph version is served; adapters pin v21.0 but the simulator need not care.
  const graphVersion: RequestHandler = (req, _res, next) => next(/^v\d+\.\d+$/.test(String(req.params.version)) ? undefined : 'route');
  const auth = requireBearer(deps.accessToken, (res) => sendGraphError(res, 'invalidToken', 'The access token could not be decrypted'));
  const json = express.json({ limit: '1mb' });
  const numericId: RequestHandler = (req, res, next) => {
    const id = String(req.params.phoneNumberId ?? req.params.wabaId);
    if (/^\d+$/.test(id)) return next();
    sendGraphError(res, 'invalidParameterGeneric', `Unsupported post request. Object with ID '${id}' does not exist.`);
  };

  const templates = createMessageTemplateHandlers(deps);
  const faults: RequestHandler = deps.faults
    ? createFaultGate({
        channel: 'chat',
        faults: deps.faults,
        scheduler: deps.scheduler,
        logger: deps.logger,
        refuse: (res) => sendGraphError(res, 'serviceUnavailable', 'The service is temporarily unavailable.'),
      })
    : (_req, _res, next) => next();
  router.post('/:version/:phoneNumberId/messages', graphVersion, auth, faults, json, numericId, createSendChatMessageHandler(deps));
  router.post('/:version/:wabaId/message_templates', graphVersion, auth, json, numericId, templates.create);
  router.get('/:version/:wabaId/message_templates', graphVersion, auth, templates.list);
  router.delete('/:version/:wabaId/message_templates', graphVersion, auth, templates.remove);

  const onError: ErrorRequestHandler = (err, _req, res, _next) => {
    if (res.headersSent) return;
    const status = (err as { status?: number }).status;
    if (status && status >= 400 && status < 500) {
      sendGraphError(res, 'invalidParameterGeneric', (err as Error).message);
      return;
    }
    deps.logger.error('cloud api handler failed', { error: String(err) });
    sendGraphError(res, 'somethingWentWrong', 'An unknown error occurred');
  };
  router.use(onError);
  return router;
}

const GRAPH_SEND_PATH = /^\/v\d+\.\d+\/(\d+)\/messages$/;

/** The send endpoint for the fast path (http/fast-sends.listener.ts): the same handler, the same error shapes. */
export function createChatFastSendRoute(deps: ChatMessagesDeps & { accessToken: string }): FastSendRoute {
  return {
    channel: 'chat',
    accessToken: deps.accessToken,
    match(path) {
      const found = GRAPH_SEND_PATH.exec(path);
      return found ? { phoneNumberId: found[1] } : null;
    },
    handle: createSendChatMessageHandler(deps),
    badJson: (res, message) => sendGraphError(res, 'invalidParameterGeneric', message),
    internalError: (res) => sendGraphError(res, 'somethingWentWrong', 'An unknown error occurred'),
  };
}
