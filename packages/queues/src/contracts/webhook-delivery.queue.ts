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
  /**
   * Attempts made before this job (the first one is made inside the fan-out, docs/webhooks.md), so that
   * the retry schedule goes on from where it is. @defaultValue 0
   */
  attempts_made?: number;
}

/** A redelivery bumps the generation, so it gets a job of its own while the old one goes stale. */
export function deliveryJobId(deliveryId: string, generation: number): string {
  return `${deliveryId}-g${generation}`;
}

/** A delivery job to enqueue: a first attempt, or the retry of a delivery already tried `attemptsMade` times. */
export interface DeliveryToEnqueue {
  id: string;
  generation: number;
  /** Attempts already made. @defaultValue 0 */
  attemptsMade?: number;
  /** Wait before the job runs. @defaultValue the schedule's wait before the next attempt */
  delayMs?: number;
}

/**
 * Each job waits the schedule's step for its next attempt unless told otherwise. The schedule decides
 * when to stop; the spare attempts absorb unexpected errors (the store down) without ending a delivery early.
 */
export function enqueueDeliveries(
  queue: BulkJobAdder<DeliverWebhookJob>,
  deliveries: readonly DeliveryToEnqueue[],
  retryScheduleMs: readonly number[],
): Promise<unknown> {
  return queue.addBulk(
    deliveries.map((d) => {
      const made = d.attemptsMade ?? 0;
      const scheduled = retryScheduleMs[Math.min(made, retryScheduleMs.length - 1)];
      return {
        name: WEBHOOK_DELIVERY_QUEUE.jobs.deliverWebhook,
        data: made > 0 ? { delivery_id: d.id, generation: d.generation, attempts_made: made } : { delivery_id: d.id, generation: d.generation },
        opts: {
          ...WEBHOOK_DELIVERY_QUEUE.jobOptions,
          delay: d.delayMs ?? scheduled,
          attempts: Math.max(1, retryScheduleMs.length - made) + 5,
          jobId: deliveryJobId(d.id, d.generation),
        },
      };
    }),
  );
}
