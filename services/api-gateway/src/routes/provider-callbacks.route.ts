import { createHash } from 'node:crypto';
import { Router, type RequestHandler } from 'express';
import type { UpstreamReceipt } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';
import { parseChatWebhook, parseRbmEvent, verifyChatSignature, verifyRbmSignature } from '@switchboard/providers';
import { createBatcher } from '@switchboard/runtime';
import { enqueueProviderCallback, providerCallbackJobId, type CallbackSource, type JobAdder, type ProviderCallbackJob } from '@switchboard/queues';
import type { DependencyGuard } from '../http/dependency-guard';
import { parseJsonBody, readJsonRequestBody } from '../http/json-body.middleware';
import { gatewayErrors } from '../http/problem';
import { rawBodyOf } from '../http/request-context';

/**
 * At most 100 receipt-only callbacks share one provider-callback job, as many as the dispatcher's receipt batch
 * (docs/performance/dispatch.md#receipt-batches): a busy moment's callbacks share a job, and no job grows without bound.
 */
export const CALLBACK_RECEIPTS_GROUP_MAX = 100;

export interface ProviderCallbackDeps {
  /** Where callback jobs go: the provider-callbacks queue, or every partition's by job id (jobAdderByJobId). */
  queue: JobAdder<ProviderCallbackJob>;
  guard: DependencyGuard;
  logger: Logger;
  bodyLimitBytes: number;
  /** Callbacks carrying only receipts that may share one job (the gateway passes {@link CALLBACK_RECEIPTS_GROUP_MAX}). @defaultValue 1 */
  receiptsGroupMax?: number;
  chatAppSecret: string;
  chatVerifyToken: string;
  rbmClientToken: string;
  /**
   * Confirms the callback's job on REDIS_MIN_REPLICAS_ACK replicas before the 200: a receipt acknowledged to the
   * upstream is never sent again (docs/operations.md#redis-failover). @defaultValue none
   */
  replicaAck?: () => Promise<void>;
  clock?: () => number;
}

type Contents = Pick<ProviderCallbackJob, 'receipts' | 'inbound' | 'template_updates'>;

function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Upstream callbacks (docs/api.md#upstream-callbacks): verified with the upstream's own scheme,
 * parsed into our normalised shapes, enqueued and acknowledged at once. The job id is a digest of what
 * the upstream signed, so a redelivery of the same callback is ignored by BullMQ.
 * Callbacks that carry only receipts (RBM sends one event per request) go through a group commit: one
 * arriving while the previous job of its upstream is being queued waits and goes into the next job with
 * the others (docs/performance/dispatch.md#dispatch). Each is still answered only once its job is in Redis. A
 * redelivered callback may land in another group and be applied twice, which changes nothing: a receipt
 * only moves a message forward. Inbound messages and template updates keep a job per callback.
 */
export function providerCallbacksRouter(deps: ProviderCallbackDeps): Router {
  const { queue, guard, logger, clock = Date.now } = deps;
  const router = Router();
  const callbackJob = (source: CallbackSource, contents: Contents): ProviderCallbackJob => ({
    source,
    received_at: new Date(clock()).toISOString(),
    ...contents,
  });
  const onlyReceipts = (receipts: UpstreamReceipt[]): Contents => ({ receipts, inbound: [], template_updates: [] });

  const enqueueReceipts = createBatcher<{ digest: string; receipts: UpstreamReceipt[] }, void, CallbackSource>({
    runOne: async ({ digest, receipts }, source) => {
      await enqueueProviderCallback(queue, callbackJob(source, onlyReceipts(receipts)), providerCallbackJobId.signedBody(source, digest));
    },
    runMany: async (callbacks, source) => {
      const job = callbackJob(source, onlyReceipts(callbacks.flatMap((callback) => callback.receipts)));
      await enqueueProviderCallback(
        queue,
        job,
        providerCallbackJobId.signedBodies(
          source,
          callbacks.map((callback) => callback.digest),
        ),
      );
      return callbacks.map(() => undefined);
    },
    flush: 'after-previous',
    maxSize: deps.receiptsGroupMax ?? 1,
    onGroupFailure: 'retry-each-alone',
  });

  async function enqueue(source: CallbackSource, signed: Buffer | string, contents: Contents): Promise<void> {
    if (contents.receipts.length + contents.inbound.length + contents.template_updates.length === 0) return;
    const digest = sha256(signed);
    if (contents.inbound.length + contents.template_updates.length === 0) {
      await guard('redis', () => enqueueReceipts({ digest, receipts: contents.receipts }, source));
    } else {
      await guard('redis', () => enqueueProviderCallback(queue, callbackJob(source, contents), providerCallbackJobId.signedBody(source, digest)));
    }
    // Unconfirmed, the 503 makes the upstream send the callback again; the job id (its digest) keeps it one job.
    if (deps.replicaAck) await guard('redis', deps.replicaAck);
  }

  /** A signed body we cannot read would be retried forever by the upstream; 400 ends that. */
  function parseSafely<T>(source: CallbackSource, parse: () => T): T {
    try {
      return parse();
    } catch (error) {
      logger.warn('upstream callback not understood', { source, error: (error as Error).message });
      throw gatewayErrors.badRequest('The callback body could not be interpreted.');
    }
  }

  // Cloud API verification handshake: echo hub.challenge when the verify token matches.
  router.get('/v1/providers/chat/webhook', (req, res, next) => {
    const { 'hub.mode': mode, 'hub.verify_token': token, 'hub.challenge': challenge } = req.query;
    if (mode !== 'subscribe' || token !== deps.chatVerifyToken || typeof challenge !== 'string') {
      next(gatewayErrors.forbidden('The verification token does not match.'));
      return;
    }
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.status(200).type('text/plain').send(challenge);
  });

  // The HMAC covers the raw bytes, so the signature is checked before the body is parsed.
  const verifyChat: RequestHandler = (req, res, next) => {
    const header = req.headers['x-hub-signature-256'];
    const ok = verifyChatSignature(deps.chatAppSecret, rawBodyOf(res), typeof header === 'string' ? header : undefined);
    next(ok ? undefined : gatewayErrors.invalidSignature());
  };

  router.post('/v1/providers/chat/webhook', readJsonRequestBody(deps.bodyLimitBytes), verifyChat, parseJsonBody(), async (req, res) => {
    const parsed = parseSafely('chat', () => parseChatWebhook(req.body));
    await enqueue('chat', rawBodyOf(res), {
      receipts: parsed.receipts,
      inbound: parsed.inbound,
      template_updates: parsed.templateUpdates,
    });
    res.status(200).json({ received: true });
  });

  router.post('/v1/providers/rcs/events', readJsonRequestBody(deps.bodyLimitBytes), parseJsonBody(), async (req, res) => {
    const header = req.headers['x-goog-signature'];
    if (!verifyRbmSignature(deps.rbmClientToken, req.body, typeof header === 'string' ? header : undefined)) {
      throw gatewayErrors.invalidSignature();
    }
    const parsed = parseSafely('rcs', () => parseRbmEvent(req.body));
    // Pub/Sub may rewrap a redelivery, but the signed `message.data` stays the same.
    const data = (req.body as { message: { data: string } }).message.data;
    await enqueue('rcs', data, { receipts: parsed.receipts, inbound: parsed.inbound, template_updates: [] });
    res.status(200).json({ received: true });
  });

  return router;
}
