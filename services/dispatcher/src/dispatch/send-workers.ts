import type { Job } from 'bullmq';
import { createJobWorker, isSendChunk, MESSAGE_SEND_LANES, type JobWorker, type JobWorkerOptions, type SendChunkJob, type SendMessageJob, type TrafficLane } from '@switchboard/queues';
import type { createSendChunkProcessor } from '../processors/send-chunk.processor';

/**
 * Stalls (a dispatcher killed mid-job) a send job survives before BullMQ fails it. A chunk is taken up many
 * times in its life (after every turn), so BullMQ's default of one would turn a second crash into a failed
 * chunk; a job that kills its process every time still ends after this many.
 */
export const SEND_JOB_MAX_STALLS = 10;

export interface SendWorkersDeps {
  sendMessage: (job: Job<SendMessageJob>, token?: string) => Promise<void>;
  sendChunk: ReturnType<typeof createSendChunkProcessor>;
  /** A lane's fair-share clock, told of every job that starts (lane-turns.ts). */
  startedIn: (lane: TrafficLane) => (job: Job) => void;
  options: JobWorkerOptions;
  concurrency: Record<TrafficLane, number>;
}

/** One worker per lane, each with slots of its own: a bulk backlog never holds a transactional slot (docs/messages.md#traffic-lanes). */
export function createSendWorkers({ sendMessage, sendChunk, startedIn, options, concurrency }: SendWorkersDeps): JobWorker[] {
  const common = { ...options, maxStalledCount: SEND_JOB_MAX_STALLS };
  const transactional = createJobWorker(
    MESSAGE_SEND_LANES.transactional,
    { [MESSAGE_SEND_LANES.transactional.jobs.sendMessage]: sendMessage },
    { ...common, concurrency: concurrency.transactional, onJobStart: startedIn('transactional') },
  );
  const asChunk = (job: Job<SendMessageJob | SendChunkJob>) => {
    if (!isSendChunk(job.data)) throw new Error(`job ${job.id} is not a chunk`);
    return job as Job<SendChunkJob>;
  };
  const asMessage = (job: Job<SendMessageJob | SendChunkJob>) => job as Job<SendMessageJob>;
  const bulk = createJobWorker(
    MESSAGE_SEND_LANES.bulk,
    {
      [MESSAGE_SEND_LANES.bulk.jobs.sendMessage]: (job, token) => sendMessage(asMessage(job), token),
      [MESSAGE_SEND_LANES.bulk.jobs.sendChunk]: {
        process: (job, token) => sendChunk.process(asChunk(job), token),
        retry: { onFailedForGood: (job) => sendChunk.onFailedForGood(asChunk(job)) },
      },
    },
    { ...common, concurrency: concurrency.bulk, onJobStart: startedIn('bulk') },
  );
  return [transactional, bulk];
}
