import { UnrecoverableError, type Job, type JobsOptions } from 'bullmq';
import { isId } from '@switchboard/domain';
import { deliveryJobId, WEBHOOK_JOB_NAMES, type DeliverWebhookJob, type FanOutEventJob } from '@switchboard/queues';
import { CALLBACK_TARGET, type DeliveryTarget, type EventsRepository, type WebhookDeliveriesRepository, type WebhookEndpointsRepository } from '@switchboard/store';

export interface DeliveryQueueLike {
  addBulk(jobs: Array<{ name: string; data: DeliverWebhookJob; opts: JobsOptions }>): Promise<unknown>;
}

export interface FanOutDeps {
  events: EventsRepository;
  endpoints: WebhookEndpointsRepository;
  deliveries: WebhookDeliveriesRepository;
  deliveryQueue: DeliveryQueueLike;
  /** Options of every delivery job (attempts, backoff type, retention, first delay). */
  deliveryJobOptions: JobsOptions;
  clock: () => Date;
}

/**
 * Plans an event's deliveries: one per target (the resource's callback_url, every enabled endpoint
 * subscribed to the type or `*`), each row created idempotently and each pending one enqueued with a
 * job id of its own. Running twice (a crash, the outbox sweeper, a redelivery) adds nothing new.
 */
export function createFanOutEventProcessor(deps: FanOutDeps) {
  return async (job: Job<FanOutEventJob>): Promise<{ deliveries: number }> => {
    if (!isId('evt', job.data?.event_id)) throw new UnrecoverableError(`invalid fan-out payload: ${JSON.stringify(job.data)}`);
    const event = await deps.events.findById(job.data.event_id);
    if (!event) throw new UnrecoverableError(`event ${job.data.event_id} does not exist`);

    const targets: DeliveryTarget[] = [];
    const callbackUrl = await deps.events.callbackUrl(event.resource_type, event.resource_id);
    if (callbackUrl) targets.push({ targetKey: CALLBACK_TARGET, endpointId: null, url: callbackUrl });
    for (const endpoint of await deps.endpoints.subscribedTo(event.account_id, event.type)) {
      targets.push({ targetKey: endpoint.id, endpointId: endpoint.id, url: endpoint.url });
    }
    const now = deps.clock();
    await deps.deliveries.createForEvent(event, targets, now);
    const pending = await deps.deliveries.pendingForEvent(event.id);
    if (pending.length > 0) {
      await deps.deliveryQueue.addBulk(
        pending.map((d) => ({
          name: WEBHOOK_JOB_NAMES.deliverWebhook,
          data: { delivery_id: d.id, generation: d.generation },
          opts: { ...deps.deliveryJobOptions, jobId: deliveryJobId(d.id, d.generation) },
        })),
      );
    }
    // A job the sweeper or a redelivery enqueued also counts as publishing the event.
    if (!event.published_at) await deps.events.markPublished([event.id], now);
    return { deliveries: pending.length };
  };
}
