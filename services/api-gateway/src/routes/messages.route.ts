import { Router, type RequestHandler, type Response } from 'express';
import { ApiError, ConflictError, RateLimitedError, UnprocessableError, type ConcreteChannel } from '@switchboard/domain';
import type { SendMessageJob } from '@switchboard/queues';
import type { MessageRequest } from '@switchboard/schemas';
import type { DependencyGuard } from '../http/dependency-guard';
import { callerOf } from '../http/request-context';
import { readIdempotencyKey } from '../idempotency/idempotency-key';
import type { IdempotencyRecord, IdempotencyScope, IdempotencyStore, Reservation, StoredResponse } from '../idempotency/idempotency.store';
import { requestFingerprint } from '../idempotency/request-fingerprint';
import { acceptedResponse, type MessageAcceptance } from '../messages/message-acceptance';
import { claimDeferredRateLimit, settleClaimedRateLimit, settleRateLimit } from '../rate-limit/rate-limit.middleware';
import type { createSlidingWindowCalls } from '../rate-limit/rate-limiter';

/** The scope of an Idempotency-Key is (account, route) (docs/api.md#idempotency-key). */
const IDEMPOTENCY_ROUTE = 'post-messages';

export interface SendMessageDeps {
  validateRequest: (body: unknown) => MessageRequest;
  /** Keys are scoped to (account, route) (docs/api.md#idempotency-key). @defaultValue `post-messages` */
  idempotencyRoute?: string;
  acceptance: MessageAcceptance;
  idempotency: IdempotencyStore;
  guard: DependencyGuard;
  /** A fresh `msg_` id. */
  newMessageId: () => string;
  /**
   * The recipient's suppression keys on these channels (packages/shared-state). When given, a request with
   * an Idempotency-Key reads them in the reservation's script call instead of a round trip of its own.
   */
  suppressionKeys?: (accountId: string, recipient: string, channels: readonly ConcreteChannel[]) => string[];
  /** With `suppressionKeys`: the rate-limit count of a request with a key joins the same script call. */
  slidingWindow?: ReturnType<typeof createSlidingWindowCalls>;
}

function sendAccepted(res: Response, response: StoredResponse, replayed: boolean): void {
  res.statusCode = response.status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Location', response.location);
  if (replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.end(response.body);
}

const inUse = () => new ConflictError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed.', { 'Retry-After': '1' });
const reused = () =>
  new UnprocessableError('idempotency_key_reused', 'This Idempotency-Key was used with a different request body.', [
    { field: 'header:Idempotency-Key', message: 'was used with a different body' },
  ]);

/** The job a takeover enqueues: this request's, under the id, time and price the stored answer names. */
function adoptStoredAnswer(job: SendMessageJob, record: IdempotencyRecord): SendMessageJob {
  const answered = JSON.parse(record.response.body) as { created_at: string; cost_units: number };
  return { ...job, message_id: record.message_id, created_at: answered.created_at, cost_units: answered.cost_units };
}

/**
 * `POST /v1/messages` → 202. No database write on this path: the message is accepted once its job is in
 * Redis. With an Idempotency-Key, the key is reserved together with the 202 answer (one round trip) and
 * then the job is enqueued. A request that finds the key taken replays that answer once its job is in the
 * queue (or already stored); while it is not, the first request is still in flight (409), unless the
 * reservation is older than the lease: its gateway died before enqueueing, and this request finishes the
 * job under the same message id, which BullMQ never enqueues twice.
 */
export function createSendMessageHandler({
  validateRequest,
  idempotencyRoute = IDEMPOTENCY_ROUTE,
  acceptance,
  idempotency,
  guard,
  newMessageId,
  suppressionKeys,
  slidingWindow,
}: SendMessageDeps): RequestHandler {
  /**
   * The common case in one round trip: the rate-limit count (when `rateLimitInSendScript` deferred it), the
   * opt-out read and the reservation, with the job priced as if the recipient opted out of nothing. A refused
   * count is a 429 with nothing reserved. If the recipient opted out of a plan channel, null: the long way
   * below (suppression gate: a 422, or channels skipped and priced anew; then `reserve`), as without the fold.
   */
  async function reserveFolded(res: Response, request: MessageRequest, scope: IdempotencyScope, fingerprint: string, messageId: string) {
    if (!suppressionKeys || !slidingWindow) return null;
    const caller = callerOf(res);
    const job = await acceptance.prepare(caller, request, messageId, { deferSuppression: true });
    const response = acceptedResponse(job);
    const keys = suppressionKeys(caller.accountId, request.recipient, job.plan);
    const claimed = claimDeferredRateLimit(res);
    const count = claimed ? slidingWindow.call(claimed.keyId, claimed.quota) : null;
    const { limit, reservation } = await guard('redis', () => idempotency.reserveInSendScript(scope, fingerprint, job.message_id, response, keys, count));
    if (claimed && limit) settleClaimedRateLimit(res, slidingWindow.decision(limit, claimed.quota));
    if (reservation.outcome === 'suppressed' || reservation.outcome === 'limited') return null;
    return { job, response, reservation };
  }

  async function answerTakenKey(
    res: Response,
    taken: Exclude<Reservation, { outcome: 'reserved' }>,
    job: SendMessageJob | null,
    refusal?: ApiError,
  ): Promise<void> {
    if (taken.outcome === 'reused') throw reused();
    if (taken.outcome === 'in_use') throw inUse();
    const { record } = taken;
    if (await acceptance.wasEnqueued(record.message_id)) {
      // The first request's writes may be all the master has (its 503 `replication_unconfirmed`): confirm them before replaying.
      await acceptance.confirmReplicated();
      return sendAccepted(res, record.response, true);
    }
    // The first request never enqueued and this one cannot be sent either: nothing was accepted.
    if (!job && taken.leaseExpired && refusal) throw refusal;
    if (!job || !taken.leaseExpired || !(await guard('redis', () => taken.takeOver()))) throw inUse();
    await acceptance.enqueue(adoptStoredAnswer(job, record));
    sendAccepted(res, record.response, false);
  }

  return async (req, res) => {
    const caller = callerOf(res);
    // A 400 here still counts: the error middleware settles the rate limit, and its 429 outranks the 400.
    const key = readIdempotencyKey(req.headers['idempotency-key']);
    const request = validateRequest(req.body);
    if (key === null) {
      await settleRateLimit(res);
      const job = await acceptance.prepare(caller, request, newMessageId());
      await acceptance.enqueue(job);
      sendAccepted(res, acceptedResponse(job), false);
      return;
    }

    const scope = { accountId: caller.accountId, route: idempotencyRoute, key };
    const fingerprint = requestFingerprint(req.body);
    const messageId = newMessageId();
    let reserved: { job: SendMessageJob; response: StoredResponse; reservation: Reservation } | null;
    try {
      reserved = await reserveFolded(res, request, scope, fingerprint, messageId);
      if (!reserved) {
        await settleRateLimit(res);
        const job = await acceptance.prepare(caller, request, messageId);
        const response = acceptedResponse(job);
        reserved = {
          job,
          response,
          reservation: await guard('redis', () => idempotency.reserve(scope, fingerprint, job.message_id, response)),
        };
      }
    } catch (refusal) {
      // A 4xx is not kept (the client may fix the request and reuse the key), but a key that already
      // holds an answer, or another body, outranks a refusal this retry alone would get.
      if (!(refusal instanceof ApiError) || refusal.status >= 500 || refusal instanceof RateLimitedError) throw refusal;
      // Refused before the script call counted it: counted now, and over the limit it is a 429.
      await settleRateLimit(res);
      const taken = await guard('redis', () => idempotency.peek(scope, fingerprint));
      if (!taken) throw refusal;
      return answerTakenKey(res, taken, null, refusal);
    }
    const { job, response, reservation } = reserved;
    if (reservation.outcome !== 'reserved') return answerTakenKey(res, reservation, job);
    // A failed enqueue leaves the reservation: the job may have reached Redis before the connection
    // broke, and only a retry after the lease, enqueueing under the same id, can tell the difference.
    await acceptance.enqueue(job);
    sendAccepted(res, response, false);
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
  /** `DELETE /v1/messages/{id}` (docs/messages.md#canceling-a-scheduled-message), behind `authenticateCancel`. */
  cancelMessage?: RequestHandler;
  authenticateCancel?: RequestHandler[];
}

export function messagesRouter(deps: MessagesRouterDeps): Router {
  const router = Router();
  router.post('/v1/messages', ...deps.authenticateWrite, ...deps.body, deps.sendMessage);
  router.get('/v1/messages', ...deps.authenticateRead, deps.listMessages);
  router.get('/v1/messages/:id', ...deps.authenticateRead, deps.getMessage);
  router.get('/v1/messages/:id/events', ...deps.authenticateRead, deps.getMessageEvents);
  if (deps.cancelMessage) router.delete('/v1/messages/:id', ...(deps.authenticateCancel ?? []), deps.cancelMessage);
  return router;
}
