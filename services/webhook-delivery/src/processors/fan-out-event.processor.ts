import { UnrecoverableError, type Job } from 'bullmq';
import { enqueueDeliveries, type BulkJobAdder, type DeliverWebhookJob, type DeliveryToEnqueue, type FanOutEventJob } from '@switchboard/queues';
import { JOB_PAYLOAD_CHECKS } from '@switchboard/schemas';
import {
  CALLBACK_TARGET,
  type DeliveryForAttempt,
  type DeliveryTarget,
  type EventsRepository,
  type FanOutPlan,
  type PendingDelivery,
  type WebhookDeliveriesRepository,
} from '@switchboard/store';
import type { AttemptInput, AttemptResult } from './delivery-attempt';

type FannedOutDelivery = PendingDelivery & { forAttempt?: DeliveryForAttempt };

export interface FanOutDeps {
  events: EventsRepository;
  /** Reads one event's plan; main.ts coalesces concurrent reads into one query. @defaultValue one query per event */
  loadPlan?: (eventId: string) => Promise<FanOutPlan | null>;
  /**
   * Creates an event's deliveries and lists its pending ones, each with what its attempt needs when the
   * same statement read it (`forAttempt`); main.ts coalesces concurrent events. @defaultValue one statement per event
   */
  createDeliveries?: (input: { event: FanOutPlan['event']; targets: DeliveryTarget[]; at: Date }) => Promise<FannedOutDelivery[]>;
  /** Enqueues delivery jobs; main.ts shares one addBulk between concurrent events. @defaultValue one addBulk per event */
  enqueue?: (jobs: DeliveryToEnqueue[]) => Promise<void>;
  /**
   * Makes a delivery's first attempt inside the fan-out job, so that a delivery that succeeds at once
   * costs no job of its own. @defaultValue none: every delivery gets a job
   */
  attemptFirst?: (input: AttemptInput) => Promise<AttemptResult>;
  /** Wait of the job that takes over a first attempt whose target was saturated. @defaultValue 250 */
  saturationDelayMs?: number;
  /** Marks an event published; main.ts coalesces concurrent events. @defaultValue one statement per event */
  markPublished?: (input: { id: string; at: Date }) => Promise<void>;
  deliveries: WebhookDeliveriesRepository;
  deliveryQueue: BulkJobAdder<DeliverWebhookJob>;
  /** The webhook retry schedule: a first attempt is made at once only when its first wait is 0. */
  retryScheduleMs: readonly number[];
  clock: () => Date;
}

/**
 * Plans an event's deliveries: one per target (the resource's callback_url, every enabled endpoint
 * subscribed to the type or `*`), each row created idempotently. A delivery never tried yet gets its first
 * attempt here, at once; a delivery job (job id of its own) is enqueued only for what is left: a retry on
 * the schedule, a saturated target, an attempt that hit an unexpected error, or a delivery already tried
 * before (a fan-out running again). Running twice (a crash, the outbox sweeper, a redelivery) creates no
 * second row and enqueues no second job; a crash mid-attempt makes the attempt again with the same
 * `webhook-id` (at least once, docs/webhooks.md).
 */
export function createFanOutEventProcessor(deps: FanOutDeps) {
  const loadPlan = deps.loadPlan ?? (async (id: string) => (await deps.events.fanOutPlans([id])).get(id) ?? null);
  const createDeliveries =
    deps.createDeliveries ??
    ((i: { event: FanOutPlan['event']; targets: DeliveryTarget[]; at: Date }) => deps.deliveries.createForEvent(i.event, i.targets, i.at));
  const enqueue = deps.enqueue ?? (async (jobs: DeliveryToEnqueue[]) => void (await enqueueDeliveries(deps.deliveryQueue, jobs, deps.retryScheduleMs)));
  const markPublished = deps.markPublished ?? ((i: { id: string; at: Date }) => deps.events.markPublished([i.id], i.at));
  const attemptFirst = deps.retryScheduleMs[0] === 0 ? deps.attemptFirst : undefined;
  const saturationDelayMs = deps.saturationDelayMs ?? 250;

  /** The job a delivery still needs after its first attempt, or null when the attempt settled it. */
  const firstAttempt = async (d: FannedOutDelivery, holder: string): Promise<DeliveryToEnqueue | null> => {
    if (!attemptFirst || d.attempt_count > 0) return { id: d.id, generation: d.generation, attemptsMade: d.attempt_count };
    try {
      const result = await attemptFirst({ deliveryId: d.id, generation: d.generation, attemptsBefore: 0, holder: `${holder}:${d.id}`, delivery: d.forAttempt });
      if ('ended' in result) return null;
      if ('saturated' in result) return { id: d.id, generation: d.generation, delayMs: saturationDelayMs };
      return { id: d.id, generation: d.generation, attemptsMade: 1, delayMs: result.retryInMs };
    } catch {
      // The store or a secret failed the attempt: the delivery job retries it with its spare attempts,
      // and marks the delivery failed if they run out, as it does for any attempt.
      return { id: d.id, generation: d.generation, delayMs: 1_000 };
    }
  };

  return async (job: Job<FanOutEventJob>, token?: string): Promise<{ deliveries: number }> => {
    const invalid = JOB_PAYLOAD_CHECKS.fanOutEvent(job.data);
    if (invalid) throw new UnrecoverableError(invalid);
    // At most two store round trips per event (plan, then insert-and-list): round trips bound throughput.
    const plan = await loadPlan(job.data.event_id);
    if (!plan) throw new UnrecoverableError(`event ${job.data.event_id} does not exist`);
    const { event } = plan;

    const targets: DeliveryTarget[] = [];
    if (plan.callbackUrl) targets.push({ targetKey: CALLBACK_TARGET, endpointId: null, url: plan.callbackUrl });
    for (const endpoint of plan.endpoints) targets.push({ targetKey: endpoint.id, endpointId: endpoint.id, url: endpoint.url });
    const now = deps.clock();
    const pending = await createDeliveries({ event, targets, at: now });
    const holder = `${job.id}:${token ?? ''}`;
    // A job the sweeper or a redelivery enqueued also counts as publishing the event. Marked while the
    // attempts run, so the sweeper does not publish it again meanwhile; a crash after the mark still
    // leaves this job, which BullMQ hands to another worker.
    const [published, attempted] = await Promise.allSettled([
      event.published_at ? Promise.resolve() : markPublished({ id: event.id, at: now }),
      Promise.all(pending.map((d) => firstAttempt(d, holder))),
    ]);
    if (attempted.status === 'rejected') throw attempted.reason;
    const jobs = attempted.value.filter((j): j is DeliveryToEnqueue => j !== null);
    if (jobs.length > 0) await enqueue(jobs);
    if (published.status === 'rejected') throw published.reason;
    return { deliveries: pending.length };
  };
}
