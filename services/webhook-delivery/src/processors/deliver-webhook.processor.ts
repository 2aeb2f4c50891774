import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import type { DeliverWebhookJob, JobHandler } from '@switchboard/queues';
import { JOB_PAYLOAD_CHECKS } from '@switchboard/schemas';
import { createDeliveryAttempt, type AttemptDeps } from './delivery-attempt';

/** A failed attempt with the wait the schedule chose; the retry policy below reads `delayMs`. */
class RetryLaterError extends Error {
  constructor(
    readonly delayMs: number,
    message: string,
  ) {
    super(message);
  }
}

/** 250 ms before a job of a saturated target asks for a slot again: short against any retry wait, and no busy loop. */
export const SATURATION_DELAY_MS = 250;

export interface DeliverDeps extends AttemptDeps {
  saturationDelayMs: number;
}

/**
 * A delivery job: a retry of a delivery whose first attempt (made by the fan-out) failed, or an attempt
 * the fan-out could not make (target saturated, an unexpected error). The attempts made before the job
 * (`attempts_made`) and the job's own earlier runs both count towards the schedule.
 */
function createDeliverWebhookProcessor(deps: DeliverDeps) {
  const attempt = createDeliveryAttempt(deps);
  return async (job: Job<DeliverWebhookJob>, token?: string): Promise<string> => {
    const invalid = JOB_PAYLOAD_CHECKS.deliverWebhook(job.data);
    if (invalid) throw new UnrecoverableError(invalid);
    const result = await attempt({
      deliveryId: job.data.delivery_id,
      generation: job.data.generation,
      attemptsBefore: (job.data.attempts_made ?? 0) + job.attemptsMade,
      holder: `${job.id}:${token ?? ''}`,
    });
    if ('ended' in result) return result.ended;
    if ('saturated' in result) {
      // Saturated target: wait without using up an attempt, leaving the worker free for other endpoints.
      await job.moveToDelayed(Date.now() + deps.saturationDelayMs, token);
      throw new DelayedError();
    }
    throw new RetryLaterError(result.retryInMs, result.error);
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
