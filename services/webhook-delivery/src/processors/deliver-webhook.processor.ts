import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import { isId } from '@switchboard/domain';
import type { DeliverWebhookJob } from '@switchboard/queues';
import {
  signingSecrets,
  toEnvelope,
  type AccountsRepository,
  type EventsRepository,
  type WebhookDeliveriesRepository,
  type WebhookDeliveryRow,
  type WebhookEndpointsRepository,
} from '@switchboard/store';
import { nextRetryDelay, signedHeaders } from '@switchboard/webhooks';
import type { EndpointSlots } from '../endpoint-slots';
import type { WebhookSender, SendOutcome } from '../http/webhook-sender';

/** A failed attempt with the wait the schedule chose; the worker's backoff strategy reads `delayMs`. */
export class RetryLaterError extends Error {
  constructor(readonly delayMs: number, message: string) {
    super(message);
  }
}

export interface DeliverDeps {
  deliveries: WebhookDeliveriesRepository;
  endpoints: WebhookEndpointsRepository;
  events: EventsRepository;
  accounts: AccountsRepository;
  send: WebhookSender;
  slots: EndpointSlots;
  retryScheduleMs: readonly number[];
  jitterRatio: number;
  disableAfterMs: number;
  saturationDelayMs: number;
  clock: () => Date;
  onAttempt?: (outcome: 'delivered' | 'failed' | 'refused', latencyMs: number) => void;
}

type Target = { url: string; secrets: string[]; slotKey: string } | { skip: string };

async function resolveTarget(deps: DeliverDeps, delivery: WebhookDeliveryRow, accountId: string, now: Date): Promise<Target> {
  if (delivery.endpoint_id) {
    const endpoint = await deps.endpoints.findById(delivery.endpoint_id);
    if (!endpoint || !endpoint.enabled || endpoint.deleted_at) return { skip: `endpoint_disabled: ${endpoint?.disabled_reason ?? 'deleted'}` };
    return { url: delivery.url, secrets: signingSecrets(endpoint, now), slotKey: endpoint.id };
  }
  const account = await deps.accounts.findById(accountId);
  if (!account) return { skip: 'account_missing' };
  // Callback URLs have no endpoint row; their host is the unit of concurrency.
  return { url: delivery.url, secrets: [account.callback_secret], slotKey: `callback:${new URL(delivery.url).host}` };
}

/**
 * One attempt of one delivery. Success (2xx in time) marks it delivered; 410 disables the endpoint;
 * any other failure is retried on the configured schedule (Retry-After clamped), and once the schedule
 * is exhausted the delivery is a dead letter (`failed`). Every attempt is stored, refusals included.
 */
export function createDeliverWebhookProcessor(deps: DeliverDeps) {
  return async (job: Job<DeliverWebhookJob>, token?: string): Promise<string> => {
    const { delivery_id: deliveryId, generation } = job.data ?? ({} as DeliverWebhookJob);
    if (!isId('dlv', deliveryId) || !Number.isInteger(generation)) throw new UnrecoverableError(`invalid delivery payload: ${JSON.stringify(job.data)}`);
    const delivery = await deps.deliveries.findById(deliveryId);
    // A redelivery bumped the generation, or the delivery already ended: this job has nothing to do.
    if (!delivery || delivery.status !== 'pending' || delivery.generation !== generation) return 'stale';
    const event = await deps.events.findById(delivery.event_id);
    if (!event) throw new UnrecoverableError(`event ${delivery.event_id} does not exist`);

    const target = await resolveTarget(deps, delivery, event.account_id, deps.clock());
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
      const body = JSON.stringify(toEnvelope(event));
      const headers = signedHeaders({ id: event.id, timestampSeconds: Math.floor(deps.clock().getTime() / 1000), body, secrets: target.secrets });
      outcome = await deps.send({ url: target.url, headers: { ...headers }, body });
    } finally {
      await deps.slots.release(target.slotKey, holder);
    }
    const at = deps.clock();
    await deps.deliveries.recordAttempt({
      deliveryId: delivery.id,
      endpointId: delivery.endpoint_id,
      url: target.url,
      statusCode: outcome.statusCode,
      latencyMs: outcome.latencyMs,
      error: outcome.error,
      responseSize: outcome.responseSize,
      responseExcerpt: outcome.responseExcerpt,
      at,
    });
    const succeeded = outcome.error === null && outcome.statusCode !== null;
    const refused = outcome.refusedForGood || outcome.error?.startsWith('address_refused') === true;
    deps.onAttempt?.(succeeded ? 'delivered' : refused ? 'refused' : 'failed', outcome.latencyMs);
    if (succeeded) {
      await deps.deliveries.markDelivered(delivery.id, generation, at);
      if (delivery.endpoint_id) await deps.endpoints.recordSuccess(delivery.endpoint_id);
      return 'delivered';
    }
    if (outcome.statusCode === 410) {
      if (delivery.endpoint_id) await deps.endpoints.disable(delivery.endpoint_id, 'gone: the endpoint answered 410', at);
      await deps.deliveries.markFailed(delivery.id, generation, 'gone: the target answered 410', at);
      return 'gone';
    }
    if (outcome.refusedForGood) {
      await deps.deliveries.markFailed(delivery.id, generation, outcome.error ?? 'refused', at);
      return 'refused';
    }
    if (delivery.endpoint_id) {
      const failingSince = await deps.endpoints.recordFailure(delivery.endpoint_id, at);
      if (failingSince && at.getTime() - failingSince.getTime() >= deps.disableAfterMs) {
        await deps.endpoints.disable(delivery.endpoint_id, `failing: no success since ${failingSince.toISOString()}`, at);
        await deps.deliveries.markFailed(delivery.id, generation, `endpoint_disabled: ${outcome.error}`, at);
        return 'disabled';
      }
    }
    const delayMs = nextRetryDelay({
      schedule: deps.retryScheduleMs,
      attemptsMade: job.attemptsMade + 1,
      jitterRatio: deps.jitterRatio,
      retryAfterMs: outcome.retryAfterMs,
    });
    if (delayMs === null) {
      await deps.deliveries.markFailed(delivery.id, generation, `retries_exhausted: ${outcome.error}`, at);
      return 'exhausted';
    }
    await deps.deliveries.scheduleRetry(delivery.id, new Date(at.getTime() + delayMs));
    throw new RetryLaterError(delayMs, outcome.error ?? 'failed');
  };
}
