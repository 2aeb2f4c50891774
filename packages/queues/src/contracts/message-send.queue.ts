import type { AcceptedMessageFields, ConcreteChannel } from '@switchboard/domain';
import type { Queue } from 'bullmq';
import { exponentialRetry, JOB_RETENTION } from '../job-options';
import { addJobsInOneCall } from '../one-call-bulk-add';
import { payloadType, type BulkJobAdder, type JobAdder, type QueueContract } from '../queue-contract';

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
   * Set when `send_at` (docs/messages.md#scheduled-sends) or quiet hours (docs/routing.md#quiet-hours)
   * delay the message: the job waits in BullMQ's delayed set until then, reads of the waiting job show
   * `scheduled`, and `DELETE /v1/messages/{id}` may cancel it.
   */
  scheduled_until?: string;
}

/** One send job under its message id, held back `delayMs` (send_at, quiet hours); also the unit of `addBulk`. */
export function sendMessageBulkJob(job: SendMessageJob, delayMs = 0) {
  const delay = delayMs > 0 ? { delay: delayMs } : {};
  return { name: MESSAGE_SEND_QUEUE.jobs.sendMessage, data: job, opts: { ...MESSAGE_SEND_QUEUE.jobOptions, ...delay, jobId: job.message_id } };
}

/** Enqueues under the message id; a second add of the same id is a no-op in BullMQ. `delayMs` holds it back (send_at, quiet hours). */
export function enqueueSendMessage(queue: JobAdder<SendMessageJob>, job: SendMessageJob, delayMs = 0): Promise<unknown> {
  const { name, data, opts } = sendMessageBulkJob(job, delayMs);
  return queue.add(name, data, opts);
}

/** Many send jobs in one Redis round trip (a batch send, docs/messages.md#batch-sends). */
export function enqueueSendMessages(queue: BulkJobAdder<SendMessageJob>, jobs: ReadonlyArray<{ job: SendMessageJob; delayMs: number }>): Promise<unknown> {
  return queue.addBulk(jobs.map(({ job, delayMs }) => sendMessageBulkJob(job, delayMs)));
}

/** Many send jobs in ONE Redis script call, stored as `addBulk` stores them (docs/messages.md#batch-sends). */
export function enqueueSendMessagesInOneCall(queue: Queue, jobs: ReadonlyArray<{ job: SendMessageJob; delayMs: number }>): Promise<void> {
  return addJobsInOneCall(queue, jobs.map(({ job, delayMs }) => sendMessageBulkJob(job, delayMs)));
}
