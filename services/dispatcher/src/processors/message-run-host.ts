import { DelayedError, type Job } from 'bullmq';
import type { SendMessageJob } from '@switchboard/queues';

/**
 * What carries a message's run: its own job, or the chunk it travels in (docs/messages.md#chunk-lifecycle).
 */
export interface MessageRunHost {
  /** Log fields naming the job. */
  fields: Record<string, unknown>;
  /** Leaves the run until `at` without using up an attempt: the job moves to delayed, a chunk hands the message off. */
  leaveUntil(at: number): Promise<never>;
  /** Whether a transient failure now is the last try (no retry left to reconcile or resend). */
  lastAttempt: boolean;
}

/** The host of a message's own job: BullMQ's delayed set and attempts. */
export function jobHost(job: Job<SendMessageJob>, token: string | undefined, data: SendMessageJob): MessageRunHost {
  return {
    fields: { message_id: data.message_id, job_id: job.id, queue: job.queueName, attempt: job.attemptsMade + 1 },
    async leaveUntil(at) {
      await job.moveToDelayed(at, token);
      throw new DelayedError();
    },
    lastAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? 1),
  };
}
