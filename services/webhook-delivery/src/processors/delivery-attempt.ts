import { withOutgoingTrace } from '@switchboard/queues';
import {
  signingSecrets,
  toEnvelope,
  type AttemptRecord,
  type DeliveryForAttempt,
  type WebhookDeliveriesRepository,
  type WebhookEndpointsRepository,
} from '@switchboard/store';
import { nextRetryDelay, signedHeaders } from '@switchboard/webhooks';
import type { EndpointSlots } from '../endpoint-slots';
import type { WebhookSender, SendOutcome } from '../http/webhook-sender';

/**
 * 5 days without a success disables an endpoint, as svix does (Stripe likewise disables after days of failures, and
 * neither makes it a setting): the owner, told of the failures, has days to fix a broken endpoint, and one that is
 * gone stops taking slots and retries (docs/webhooks.md#delivery-retries-and-dead-letters).
 */
export const WEBHOOK_DISABLE_AFTER_MS = 5 * 24 * 3_600_000;

export interface AttemptDeps {
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
  clock: () => Date;
  /** endpointClass: `endpoint` (a registered endpoint) or `callback_url` (a message's own URL): bounded metric labels. */
  onAttempt?: (outcome: 'delivered' | 'failed' | 'refused', latencyMs: number, endpointClass: 'endpoint' | 'callback_url') => void;
}

/** What one attempt came to: the delivery ended (or had nothing to do), waits for a retry, or found its target full. */
export type AttemptResult =
  { ended: 'delivered' | 'stale' | 'skipped' | 'gone' | 'refused' | 'disabled' | 'exhausted' } | { retryInMs: number; error: string } | { saturated: true };

export interface AttemptInput {
  deliveryId: string;
  generation: number;
  /** Attempts made before this one, whichever job made them; the retry schedule goes on from here. */
  attemptsBefore: number;
  /** Names this attempt in the target's slot set; unique per attempt in flight. */
  holder: string;
  /** The delivery as the caller just read it (the fan-out reads it with the insert). @defaultValue read now */
  delivery?: DeliveryForAttempt;
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
 * One attempt of one delivery, made by the fan-out (the first attempt) or by a delivery job (a retry).
 * Success (2xx in time) marks it delivered; 410 disables the endpoint; any other failure gets the next
 * wait of the configured schedule (Retry-After clamped), and once the schedule is exhausted the delivery
 * is a dead letter (`failed`). Every attempt is stored, refusals included. The common paths cost two
 * store round trips: one read (delivery, event, secrets) and one write (attempt row, delivery status,
 * endpoint failure run), each shared with concurrent attempts in main.ts. Unexpected errors (the store
 * down, a secret that does not open) are thrown: the caller retries them.
 */
export function createDeliveryAttempt(deps: AttemptDeps): (input: AttemptInput) => Promise<AttemptResult> {
  const loadDelivery = deps.loadDelivery ?? (async (id: string) => (await deps.deliveries.findForAttempt([id])).get(id) ?? null);
  const storeSuccess =
    deps.storeSuccess ??
    (async ({ attempt, generation }: { attempt: AttemptRecord; generation: number }) =>
      void (await deps.deliveries.storeAttempt(attempt, { settle: { generation, status: 'delivered' }, endpointRun: 'success' })));
  /** Stores an attempt that reached the network with its effects, and says what comes next. */
  const storeOutcome = async (
    delivery: DeliveryForAttempt,
    url: string,
    outcome: SendOutcome,
    generation: number,
    attemptsBefore: number,
  ): Promise<AttemptResult> => {
    const at = deps.clock();
    const attempt: AttemptRecord = {
      deliveryId: delivery.id,
      endpointId: delivery.endpoint_id,
      url,
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
      return { ended: 'delivered' };
    }
    if (outcome.statusCode === 410) {
      await deps.deliveries.storeAttempt(attempt, { settle: { generation, status: 'failed', reason: 'gone: the target answered 410' } });
      if (delivery.endpoint_id) await deps.endpoints.disable(delivery.endpoint_id, 'gone: the endpoint answered 410', at);
      return { ended: 'gone' };
    }
    if (outcome.refusedForGood) {
      await deps.deliveries.storeAttempt(attempt, { settle: { generation, status: 'failed', reason: outcome.error ?? 'refused' } });
      return { ended: 'refused' };
    }
    const delayMs = nextRetryDelay({
      schedule: deps.retryScheduleMs,
      attemptsMade: attemptsBefore + 1,
      jitterRatio: deps.jitterRatio,
      retryAfterMs: outcome.retryAfterMs,
    });
    // The delivery stays pending here; the rare endings below (endpoint failing too long, schedule
    // exhausted) take one more statement, so the disabled reason still wins over retries_exhausted.
    const { failingSince } = await deps.deliveries.storeAttempt(attempt, {
      nextAttemptAt: delayMs === null ? undefined : new Date(at.getTime() + delayMs),
      endpointRun: 'failure',
    });
    if (delivery.endpoint_id && failingSince && at.getTime() - failingSince.getTime() >= WEBHOOK_DISABLE_AFTER_MS) {
      await deps.endpoints.disable(delivery.endpoint_id, `failing: no success since ${failingSince.toISOString()}`, at);
      await deps.deliveries.markFailed(delivery.id, generation, `endpoint_disabled: ${outcome.error}`, at);
      return { ended: 'disabled' };
    }
    if (delayMs === null) {
      await deps.deliveries.markFailed(delivery.id, generation, `retries_exhausted: ${outcome.error}`, at);
      return { ended: 'exhausted' };
    }
    return { retryInMs: delayMs, error: outcome.error ?? 'failed' };
  };

  return async ({ deliveryId, generation, attemptsBefore, holder, delivery: read }) => {
    const delivery = read ?? (await loadDelivery(deliveryId));
    // A redelivery bumped the generation, or the delivery already ended: nothing to do.
    if (!delivery || delivery.status !== 'pending' || delivery.generation !== generation) return { ended: 'stale' };
    // A secret that does not open is an operator's key problem: retried, in case the key comes back (docs/webhooks.md).
    if (delivery.secrets_error) throw new Error(delivery.secrets_error);

    const target = resolveTarget(delivery, deps.clock());
    if ('skip' in target) {
      await deps.deliveries.markFailed(delivery.id, generation, target.skip, deps.clock());
      return { ended: 'skipped' };
    }
    if (!(await deps.slots.acquire(target.slotKey, holder))) return { saturated: true };
    let outcome: SendOutcome;
    let released: Promise<void>;
    try {
      const body = JSON.stringify(toEnvelope(delivery.event));
      const headers = signedHeaders({ id: delivery.event.id, timestampSeconds: Math.floor(deps.clock().getTime() / 1000), body, secrets: target.secrets });
      outcome = await withOutgoingTrace('POST webhook', (trace) => deps.send({ url: target.url, headers: { ...headers, ...trace }, body }));
    } finally {
      // The slot is free once the POST is over; its release travels while the attempt is stored.
      released = deps.slots.release(target.slotKey, holder);
      released.catch(() => undefined);
    }
    const [result] = await Promise.all([storeOutcome(delivery, target.url, outcome, generation, attemptsBefore), released]);
    return result;
  };
}
