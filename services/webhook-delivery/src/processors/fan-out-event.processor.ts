import { UnrecoverableError, type Job } from 'bullmq';
import { enqueueDeliveries, type BulkJobAdder, type DeliverWebhookJob, type FanOutEventJob } from '@switchboard/queues';
import { JOB_PAYLOAD_CHECKS } from '@switchboard/schemas';
import { CALLBACK_TARGET, type DeliveryTarget, type EventsRepository, type FanOutPlan, type PendingDelivery, type WebhookDeliveriesRepository } from '@switchboard/store';

export interface FanOutDeps {
  events: EventsRepository;
  /** Reads one event's plan; main.ts coalesces concurrent reads into one query. @defaultValue one query per event */
  loadPlan?: (eventId: string) => Promise<FanOutPlan | null>;
  /** Creates an event's deliveries and lists its pending ones; main.ts coalesces concurrent events. @defaultValue one statement per event */
  createDeliveries?: (input: { event: FanOutPlan['event']; targets: DeliveryTarget[]; at: Date }) => Promise<PendingDelivery[]>;
  /** Enqueues an event's pending deliveries; main.ts shares one addBulk between concurrent events. @defaultValue one addBulk per event */
  enqueue?: (pending: PendingDelivery[]) => Promise<void>;
  /** Marks an event published; main.ts coalesces concurrent events. @defaultValue one statement per event */
  markPublished?: (input: { id: string; at: Date }) => Promise<void>;
  deliveries: WebhookDeliveriesRepository;
  deliveryQueue: BulkJobAdder<DeliverWebhookJob>;
  /** The webhook retry schedule: it sets each delivery job's first delay and attempts. */
  retryScheduleMs: readonly number[];
  clock: () => Date;
}

/**
 * Plans an event's deliveries: one per target (the resource's callback_url, every enabled endpoint
 * subscribed to the type or `*`), each row created idempotently and each pending one enqueued with a
 * job id of its own. Running twice (a crash, the outbox sweeper, a redelivery) adds nothing new.
 */
export function createFanOutEventProcessor(deps: FanOutDeps) {
  const loadPlan = deps.loadPlan ?? (async (id: string) => (await deps.events.fanOutPlans([id])).get(id) ?? null);
  const createDeliveries = deps.createDeliveries ?? ((i: { event: FanOutPlan['event']; targets: DeliveryTarget[]; at: Date }) => deps.deliveries.createForEvent(i.event, i.targets, i.at));
  const enqueue = deps.enqueue ?? (async (pending: PendingDelivery[]) => void (await enqueueDeliveries(deps.deliveryQueue, pending, deps.retryScheduleMs)));
  const markPublished = deps.markPublished ?? ((i: { id: string; at: Date }) => deps.events.markPublished([i.id], i.at));
  return async (job: Job<FanOutEventJob>): Promise<{ deliveries: number }> => {
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
    if (pending.length > 0) await enqueue(pending);
    // A job the sweeper or a redelivery enqueued also counts as publishing the event.
    if (!event.published_at) await markPublished({ id: event.id, at: now });
    return { deliveries: pending.length };
  };
}
