import { Router, type RequestHandler, type Response } from 'express';
import { ApiError, ConflictError, UnprocessableError } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';
import type { MessageRequest } from '@switchboard/schemas';
import type { DependencyGuard } from '../http/dependency-guard';
import { callerOf } from '../http/request-context';
import { readIdempotencyKey } from '../idempotency/idempotency-key';
import type { IdempotencyStore, ReservedKey, StoredResponse } from '../idempotency/idempotency.store';
import { requestFingerprint } from '../idempotency/request-fingerprint';
import type { MessageAcceptance } from '../messages/message-acceptance';
import { settleRateLimit } from '../rate-limit/rate-limit.middleware';

/** The scope of an Idempotency-Key is (account, route) (contract §3). */
const IDEMPOTENCY_ROUTE = 'post-messages';

export interface SendMessageDeps {
  validateRequest: (body: unknown) => MessageRequest;
  /** Keys are scoped to (account, route) (contract §3). @defaultValue `post-messages` */
  idempotencyRoute?: string;
  acceptance: MessageAcceptance;
  idempotency: IdempotencyStore;
  guard: DependencyGuard;
  logger: Logger;
  /** A fresh `msg_` id. */
  newMessageId: () => string;
}

function sendAccepted(res: Response, response: StoredResponse, replayed: boolean): void {
  res.statusCode = response.status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Location', response.location);
  if (replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.end(response.body);
}

/** 4xx answers are not kept, so the client may fix the request and retry with the same key (contract §3). */
async function releaseOnClientError(reservation: ReservedKey, error: unknown): Promise<void> {
  if (error instanceof ApiError && (error.status < 500 || error.status === 503)) await reservation.release().catch(() => undefined);
}

/**
 * `POST /v1/messages` → 202. No database write on this path: the message is accepted once its job is in
 * Redis. With an Idempotency-Key the key is reserved before the job is enqueued; see idempotency.store.
 */
export function createSendMessageHandler({ validateRequest, idempotencyRoute = IDEMPOTENCY_ROUTE, acceptance, idempotency, guard, logger, newMessageId }: SendMessageDeps): RequestHandler {
  return async (req, res) => {
    const caller = callerOf(res);
    await settleRateLimit(res);
    const key = readIdempotencyKey(req.headers['idempotency-key']);
    const request = validateRequest(req.body);
    if (key === null) {
      const job = await acceptance.prepare(caller, request, newMessageId());
      sendAccepted(res, await acceptance.enqueue(job, false), false);
      return;
    }

    const scope = { accountId: caller.accountId, route: idempotencyRoute, key };
    const reservation = await guard('redis', () => idempotency(scope, requestFingerprint(req.body), newMessageId()));
    switch (reservation.outcome) {
      case 'replay':
        sendAccepted(res, reservation.response, true);
        return;
      case 'in_use':
        throw new ConflictError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed.', { 'Retry-After': '1' });
      case 'reused':
        throw new UnprocessableError('idempotency_key_reused', 'This Idempotency-Key was used with a different request body.', [
          { field: 'header:Idempotency-Key', message: 'was used with a different body' },
        ]);
    }

    let job;
    try {
      job = await acceptance.prepare(caller, request, reservation.messageId);
    } catch (error) {
      await releaseOnClientError(reservation, error);
      throw error;
    }
    // A failed enqueue keeps the reservation on purpose: the job may have reached Redis before the
    // connection broke, and only a retry that takes the key over reuses its message id (one key, one job).
    const response = await acceptance.enqueue(job, reservation.takeover);
    // The answer is stored after it is sent: the message is already accepted, and the store command
    // goes out on the same Redis connection as any later request's reservation, so Redis applies it
    // first and a retry replays it. If it is lost, a retry takes the key over with the same message id.
    sendAccepted(res, response, false);
    await reservation.complete(response).catch((error: Error) => {
      logger.warn('idempotency answer not stored; a retry will take the key over', { message_id: job.message_id, error: error.message });
    });
  };
}

export interface MessagesRouterDeps {
  authenticateWrite: RequestHandler[];
  authenticateRead: RequestHandler[];
  body: RequestHandler[];
  sendMessage: RequestHandler;
  listMessages: RequestHandler;
  getMessage: RequestHandler;
  getMessageEvents: RequestHandler;
}

export function messagesRouter(deps: MessagesRouterDeps): Router {
  const router = Router();
  router.post('/v1/messages', ...deps.authenticateWrite, ...deps.body, deps.sendMessage);
  router.get('/v1/messages', ...deps.authenticateRead, deps.listMessages);
  router.get('/v1/messages/:id', ...deps.authenticateRead, deps.getMessage);
  router.get('/v1/messages/:id/events', ...deps.authenticateRead, deps.getMessageEvents);
  return router;
}
