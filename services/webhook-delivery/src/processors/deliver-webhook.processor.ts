import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import { withOutgoingTrace, type DeliverWebhookJob, type JobHandler } from '@switchboard/queues';
import { JOB_PAYLOAD_CHECKS } from '@switchboard/schemas';
import { signingSecrets, toEnvelope, type AttemptRecord, type DeliveryForAttempt, type WebhookDeliveriesRepository, type WebhookEndpointsRepository } from '@switchboard/store';
import { nextRetryDelay, signedHeaders } from '@switchboard/webhooks';
import type { EndpointSlots } from '../endpoint-slots';
import type { WebhookSender, SendOutcome } from '../http/webhook-sender';

/** A failed attempt with the wait the schedule chose; the retry policy below reads `delayMs`. */
class RetryLaterError extends Error {
  constructor(readonly delayMs: number, message: string) {
    super(message);
  }
}

export interface DeliverDeps {
  /** Reads one delivery for an attempt; main.ts coalesces concurrent reads into one query. @defaultValue one query per attempt */
  loadDelivery?: (id: string) => Promise<DeliveryForAttempt | null>;
  /** Stores a successful attempt; main.ts shares one statement between concurrent successes. @defaultValue one statement per attempt */
  storeSuccess?: (input: { attempt: AttemptRecord; generation: number }) => Promise<void>;
  deliveries: WebhookDeliveriesRepository;
  endpoints: WebhookEndpointsRepository;
  send: WebhookSender;
  slots: EndpointSlots;
  retryScheduleMs: readonly number[];
  jitterRatio: number;
  disableAfterMs: number;
  saturationDelayMs: number;
  clock: () => Date;
  /** endpointClass: `endpoint` (a registered endpoint) or `callback_url` (a message's own URL): bounded metric labels. */
  onAttempt?: (outcome: 'delivered' | 'failed' | 'refused', latencyMs: number, endpointClass: 'endpoint' | 'callback_url') => void;
}

type Target = { url: string; secrets: string[]; slotKey: string } | { skip: string };

function resolveTarget(delivery: DeliveryForAttempt, now: Date): Target {
  if (delivery.endpoint_id) {
    const endpoint = delivery.endpoint;
    if (!endpoint || !endpoint.enabled || endpoint.deleted_at) return { skip: `endpoint_disabled: ${endpoint?.disabled_reason ?? 'deleted'}` };
    return { url: delivery.url, secrets: signingSecrets(endpoint, now), slotKey: delivery.endpoint_id };
  }
  if (!delivery.callback_secret) return { skip: 'account_missing' };
  // Callback URLs have no endpoint row; their host is the unit of concurrency.
  return { url: delivery.url, secrets: [delivery.callback_secret], slotKey: `callback:${new URL(delivery.url).host}` };
}

/**
 * One attempt of one delivery. Success (2xx in time) marks it delivered; 410 disables the endpoint;
 * any other failure is retried on the configured schedule (Retry-After clamped), and once the schedule
 * is exhausted the delivery is a dead letter (`failed`). Every attempt is stored, refusals included.
 * The common paths cost two store round trips: one read (delivery, event, secrets) and one write
 * (attempt row, delivery status, endpoint failure run), each shared with concurrent attempts in main.ts.
 */
function createDeliverWebhookProcessor(deps: DeliverDeps) {
  const loadDelivery = deps.loadDelivery ?? (async (id: string) => (await deps.deliveries.findForAttempt([id])).get(id) ?? null);
  const storeSuccess =
    deps.storeSuccess ??
    (async ({ attempt, generation }: { attempt: AttemptRecord; generation: number }) => void (await deps.deliveries.storeAttempt(attempt, { settle: { generation, status: 'delivered' }, endpointRun: 'success' })));
  return async (job: Job<DeliverWebhookJob>, token?: string): Promise<string> => {
    const invalid = JOB_PAYLOAD_CHECKS.deliverWebhook(job.data);
    if (invalid) throw new UnrecoverableError(invalid);
    const { delivery_id: deliveryId, generation } = job.data;
    const delivery = await loadDelivery(deliveryId);
    // A redelivery bumped the generation, or the delivery already ended: this job has nothing to do.
    if (!delivery || delivery.status !== 'pending' || delivery.generation !== generation) return 'stale';
    // A secret that does not open is an operator's key problem: retried, in case the key comes back (docs/webhooks.md).
    if (delivery.secrets_error) throw new Error(delivery.secrets_error);

    const target = resolveTarget(delivery, deps.clock());
    if ('skip' in target) {
      await deps.deliveries.markFailed(delivery.id, generation, target.skip, deps.clock());
      return 'skipped';
    }
    const holder = `${job.id}:${token ?? ''}`;
    if (!(await deps.slots.acquire(target.slotKey, holder))) {
      // Saturated target: wait without using up an attempt, leaving the worker free for other endpoints.
      await job.moveToDelayed(Date.now() + deps.saturationDelayMs, token);
      throw new DelayedError();
    }
    let outcome: SendOutcome;
    try {
      const body = JSON.stringify(toEnvelope(delivery.event));
      const headers = signedHeaders({ id: delivery.event.id, timestampSeconds: Math.floor(deps.clock().getTime() / 1000), body, secrets: target.secrets });
      outcome = await withOutgoingTrace('POST webhook', (trace) => deps.send({ url: target.url, headers: { ...headers, ...trace }, body }));
    } finally {
      await deps.slots.release(target.slotKey, holder);
    }
    const at = deps.clock();
    const attempt: AttemptRecord = {
      deliveryId: delivery.id,
      endpointId: delivery.endpoint_id,
      url: target.url,
      statusCode: outcome.statusCode,
      latencyMs: outcome.latencyMs,
      error: outcome.error,
      responseSize: outcome.responseSize,
      responseExcerpt: outcome.responseExcerpt,
      at,
    };
    const succeeded = outcome.error === null && outcome.statusCode !== null;
    const refused = outcome.refusedForGood || outcome.error?.startsWith('address_refused') === true;
    deps.onAttempt?.(succeeded ? 'delivered' : refused ? 'refused' : 'failed', outcome.latencyMs, delivery.endpoint_id ? 'endpoint' : 'callback_url');
    if (succeeded) {
      await storeSuccess({ attempt, generation });
      return 'delivered';
    }
    if (outcome.statusCode === 410) {
      await deps.deliveries.storeAttempt(attempt, { settle: { generation, status: 'failed', reason: 'gone: the target answered 410' } });
      if (delivery.endpoint_id) await deps.endpoints.disable(delivery.endpoint_id, 'gone: the endpoint answered 410', at);
      return 'gone';
    }
    if (outcome.refusedForGood) {
      await deps.deliveries.storeAttempt(attempt, { settle: { generation, status: 'failed', reason: outcome.error ?? 'refused' } });
      return 'refused';
    }
    const delayMs = nextRetryDelay({
      schedule: deps.retryScheduleMs,
      attemptsMade: job.attemptsMade + 1,
      jitterRatio: deps.jitterRatio,
      retryAfterMs: outcome.retryAfterMs,
    });
    // The delivery stays pending here; the rare endings below (endpoint failing too long, schedule
    // exhausted) take one more statement, so the disabled reason still wins over retries_exhausted.
    const { failingSince } = await deps.deliveries.storeAttempt(attempt, {
      nextAttemptAt: delayMs === null ? undefined : new Date(at.getTime() + delayMs),
      endpointRun: 'failure',
    });
    if (delivery.endpoint_id && failingSince && at.getTime() - failingSince.getTime() >= deps.disableAfterMs) {
      await deps.endpoints.disable(delivery.endpoint_id, `failing: no success since ${failingSince.toISOString()}`, at);
      await deps.deliveries.markFailed(delivery.id, generation, `endpoint_disabled: ${outcome.error}`, at);
      return 'disabled';
    }
    if (delayMs === null) {
      await deps.deliveries.markFailed(delivery.id, generation, `retries_exhausted: ${outcome.error}`, at);
      return 'exhausted';
    }
    throw new RetryLaterError(delayMs, outcome.error ?? 'failed');
  };
}

/**
 * The delivery processor with its retry policy: each wait is the one the schedule chose; a failed
 * attempt the schedule retries is not a failure worth a log line; and a job that gives up for a reason
 * outside the schedule (the store down through every spare attempt, `UnrecoverableError`) marks its
 * delivery failed, so that it never stays pending.
 */
export function createDeliverWebhookHandler(deps: DeliverDeps): JobHandler<DeliverWebhookJob> {
  return {
    process: createDeliverWebhookProcessor(deps),
    retry: {
      backoffMs: (_attemptsMade, error) => (error instanceof RetryLaterError ? error.delayMs : 1_000),
      isScheduledRetry: (error) => error instanceof RetryLaterError,
      onFailedForGood: async (job, error) => {
        await deps.deliveries.markFailed(job.data.delivery_id, job.data.generation, `worker_error: ${error.message}`, deps.clock());
      },
    },
  };
}
