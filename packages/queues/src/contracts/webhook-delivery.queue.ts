import { JOB_RETENTION } from '../job-options';
import { payloadType, type BulkJobAdder, type QueueContract } from '../queue-contract';

/**
 * One job per (event, target) delivery: produced by webhook-delivery's fan-out, consumed by its
 * delivery processor. Renaming this queue or its job needs a migration plan: waiting jobs would be
 * orphaned.
 */
export const WEBHOOK_DELIVERY_QUEUE = {
  name: 'webhook-delivery',
  jobs: { deliverWebhook: 'deliver-webhook' },
  /**
   * The backoff is custom: the delivery processor's retry policy computes each wait from the retry
   * schedule and the target's Retry-After (see docs/webhooks.md). Attempts depend on the schedule and are
   * set by {@link enqueueDeliveries}.
   */
  jobOptions: { backoff: { type: 'webhook-schedule' }, ...JOB_RETENTION },
  payload: payloadType<DeliverWebhookJob>(),
} as const satisfies QueueContract;

/** One delivery attempt series; a job whose generation is older than the row's is stale. */
export interface DeliverWebhookJob {
  delivery_id: string;
  generation: number;
}

/** A redelivery bumps the generation, so it gets a job of its own while the old one goes stale. */
export function deliveryJobId(deliveryId: string, generation: number): string {
  return `${deliveryId}-g${generation}`;
}

/**
 * The first attempt waits the schedule's first step. The schedule decides when to stop; the spare
 * attempts absorb unexpected errors (the store down) without ending a delivery early.
 */
export function enqueueDeliveries(queue: BulkJobAdder<DeliverWebhookJob>, deliveries: readonly { id: string; generation: number }[], retryScheduleMs: readonly number[]): Promise<unknown> {
  const opts = { ...WEBHOOK_DELIVERY_QUEUE.jobOptions, delay: retryScheduleMs[0], attempts: retryScheduleMs.length + 5 };
  return queue.addBulk(
    deliveries.map((d) => ({
      name: WEBHOOK_DELIVERY_QUEUE.jobs.deliverWebhook,
      data: { delivery_id: d.id, generation: d.generation },
      opts: { ...opts, jobId: deliveryJobId(d.id, d.generation) },
    })),
  );
}
