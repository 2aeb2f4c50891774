import type { AcceptedMessageFields, ConcreteChannel, TrafficClass } from '@switchboard/domain';
import { exponentialRetry, JOB_RETENTION } from '../job-options';
import { payloadType, type BulkJobAdder, type JobAdder, type QueueContract } from '../queue-contract';

/** A traffic lane is a message's `traffic_class`: each has its own send queue (docs/messages.md#traffic-lanes). */
export type TrafficLane = TrafficClass;

const SEND_JOB_OPTIONS = { ...exponentialRetry(8, 1_000), ...JOB_RETENTION } as const;

/**
 * The transactional lane: one job per accepted message, produced by the gateway, consumed by the
 * dispatcher. Job id = message id, so BullMQ never holds two jobs for one message (docs/architecture.md,
 * "Exactly-once dispatch"). Renaming this queue or its job needs a migration plan: waiting jobs would be
 * orphaned (it keeps the name it had before lanes existed for that reason).
 */
export const MESSAGE_SEND_QUEUE = {
  name: 'message-send',
  jobs: { sendMessage: 'send-message' },
  jobOptions: SEND_JOB_OPTIONS,
  payload: payloadType<SendMessageJob>(),
} as const satisfies QueueContract;

/**
 * The bulk lane's single jobs: sends that ask for `bulk`, scheduled batch items, and messages a chunk handed
 * off. Served by dispatcher workers of its own so that its backlog never takes the transactional lane's
 * capacity. Renaming this queue or its job needs a migration plan.
 */
export const MESSAGE_SEND_BULK_QUEUE = {
  name: 'message-send-bulk',
  jobs: { sendMessage: 'send-message' },
  jobOptions: SEND_JOB_OPTIONS,
  payload: payloadType<SendMessageJob>(),
} as const satisfies QueueContract;

/**
 * The bulk lane's chunks (docs/messages.md#chunk-lifecycle): a batch's due messages, up to a thousand per job.
 * A queue of their own, served by few slots, because a chunk keeps a hundred sends in flight where a job of
 * `message-send-bulk` keeps one: in one queue, the slots single jobs need would run every chunk at once, and
 * turns between accounts would come down to whose sends got in line first.
 */
export const MESSAGE_SEND_CHUNKS_QUEUE = {
  name: 'message-send-chunks',
  jobs: { sendChunk: 'send-chunk' },
  jobOptions: SEND_JOB_OPTIONS,
  payload: payloadType<SendChunkJob>(),
} as const satisfies QueueContract;

/** Both lanes' contracts, by lane. */
export const MESSAGE_SEND_LANES = { transactional: MESSAGE_SEND_QUEUE, bulk: MESSAGE_SEND_BULK_QUEUE } as const;

/** The lane of a job; a job accepted before lanes existed carries none and is transactional. */
export function laneOf(job: Pick<SendMessageJob, 'traffic_class'>): TrafficLane {
  return job.traffic_class ?? 'transactional';
}

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

/** Where a send job waits and when it may run: `delayMs` holds it back (send_at, quiet hours), `priority` is its account's turn (fair-share.ts). */
export interface SendJobPlacement {
  job: SendMessageJob;
  delayMs: number;
  priority?: number;
}

/** One send job under its message id; also the unit of `addBulk`. */
export function sendMessageBulkJob({ job, delayMs, priority }: SendJobPlacement) {
  const delay = delayMs > 0 ? { delay: delayMs } : {};
  const turn = priority !== undefined && priority > 0 ? { priority } : {};
  return { name: MESSAGE_SEND_QUEUE.jobs.sendMessage, data: job, opts: { ...SEND_JOB_OPTIONS, ...delay, ...turn, jobId: job.message_id } };
}

/** Enqueues under the message id; a second add of the same id is a no-op in BullMQ. */
export function enqueueSendMessage(queue: JobAdder<SendMessageJob>, placement: SendJobPlacement): Promise<unknown> {
  const { name, data, opts } = sendMessageBulkJob(placement);
  return queue.add(name, data, opts);
}

/** Many send jobs in one Redis round trip (concurrent single sends, a batch send: docs/messages.md#batch-sends). */
export function enqueueSendMessages(queue: BulkJobAdder<SendMessageJob>, placements: readonly SendJobPlacement[]): Promise<unknown> {
  return queue.addBulk(placements.map(sendMessageBulkJob));
}

/**
 * A batch's due messages travel in one job of at most this many (docs/messages.md#chunk-lifecycle): the
 * largest batch, so a batch is one chunk and its messages are persisted in one statement.
 */
export const CHUNK_MAX_MESSAGES = 1_000;

/** Accepted messages of one batch that travel, are persisted and are sent as one job (docs/messages.md#chunk-lifecycle). */
export interface SendChunkJob {
  /** The job id: `<batch id>.<chunk number>`, so a retried batch request adds the same chunks again as a no-op. */
  chunk_id: string;
  batch_id: string;
  account_id: string;
  /** In item order; none is scheduled (a scheduled message keeps a delayed job of its own). */
  messages: SendMessageJob[];
}

/** What a chunk has done so far, kept as the job's progress: a run after a yield or a crash starts from it. */
export interface SendChunkProgress {
  /** Every message is stored as `queued`. */
  persisted: boolean;
  /** Messages before this index have had their run (sent, ended, or handed off to a job of their own). */
  next: number;
}

/** A batch's due messages cut into chunks, in item order. */
export function chunksOf(batchId: string, accountId: string, messages: readonly SendMessageJob[]): SendChunkJob[] {
  const chunks: SendChunkJob[] = [];
  for (let start = 0; start < messages.length; start += CHUNK_MAX_MESSAGES) {
    chunks.push({
      chunk_id: `${batchId}.${chunks.length}`,
      batch_id: batchId,
      account_id: accountId,
      messages: messages.slice(start, start + CHUNK_MAX_MESSAGES),
    });
  }
  return chunks;
}

/**
 * A chunk joins its queue without a priority: BullMQ takes such jobs before prioritized ones, so its first
 * run, which stores its messages, comes at once; its sends then wait for the account's turn.
 */
export function sendChunkBulkJob(chunk: SendChunkJob) {
  return { name: MESSAGE_SEND_CHUNKS_QUEUE.jobs.sendChunk, data: chunk, opts: { ...SEND_JOB_OPTIONS, jobId: chunk.chunk_id } };
}
