import type { AcceptedMessageFields, ConcreteChannel } from '@switchboard/domain';
import { exponentialRetry, JOB_RETENTION } from '../job-options';
import { payloadType, type JobAdder, type QueueContract } from '../queue-contract';

/**
 * One job per accepted message: produced by the gateway, consumed by the dispatcher. Job id = message
 * id, so BullMQ never holds two jobs for one message (docs/architecture.md, "Exactly-once dispatch").
 * Renaming this queue or its job needs a migration plan: waiting jobs would be orphaned.
 */
export const MESSAGE_SEND_QUEUE = {
  name: 'message-send',
  jobs: { sendMessage: 'send-message' },
  jobOptions: { ...exponentialRetry(8, 1_000), ...JOB_RETENTION },
  payload: payloadType<SendMessageJob>(),
} as const satisfies QueueContract;

export type SkipReason = 'outside_customer_service_window' | 'recipient_opted_out';

/**
 * Everything the dispatcher needs to persist and send an accepted message. The gateway writes no row
 * on the hot path, so the job is the message until the dispatcher persists it; it carries no secrets.
 */
export interface SendMessageJob extends AcceptedMessageFields {
  message_id: string;
  /**
   * Plan channels the gateway already knows cannot carry this message (an `auto` chat send outside the
   * 24 h window). The dispatcher records each as a failed attempt with `message.fallback` and moves on
   * without calling that upstream.
   */
  skipped_channels?: Partial<Record<ConcreteChannel, SkipReason>>;
  /**
   * Set when quiet hours delay the message (docs/routing.md#quiet-hours): the job waits in BullMQ's
   * delayed set until then, and reads of the waiting job show `scheduled`.
   */
  scheduled_until?: string;
}

/** Enqueues under the message id; a second add of the same id is a no-op in BullMQ. `delayMs` holds it back (quiet hours). */
export function enqueueSendMessage(queue: JobAdder<SendMessageJob>, job: SendMessageJob, delayMs = 0): Promise<unknown> {
  const delay = delayMs > 0 ? { delay: delayMs } : {};
  return queue.add(MESSAGE_SEND_QUEUE.jobs.sendMessage, job, { ...MESSAGE_SEND_QUEUE.jobOptions, ...delay, jobId: job.message_id });
}
