import type { Job } from 'bullmq';
import {
  createJobWorker,
  MESSAGE_SEND_CHUNKS_QUEUE,
  MESSAGE_SEND_LANES,
  type JobWorker,
  type JobWorkerOptions,
  type SendMessageJob,
  type TrafficLane,
} from '@switchboard/queues';
import { CHUNKS_AT_ONCE, type createSendChunkProcessor } from '../processors/send-chunk.processor';

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

/**
 * One worker per send queue, each with slots of its own: a bulk backlog never holds a transactional slot
 * (docs/messages.md#traffic-lanes), and the bulk lane's chunks have a few slots beside its single jobs.
 */
export function createSendWorkers({ sendMessage, sendChunk, startedIn, options, concurrency }: SendWorkersDeps): JobWorker[] {
  const common = { ...options, maxStalledCount: SEND_JOB_MAX_STALLS };
  const laneWorker = (lane: TrafficLane) =>
    createJobWorker(
      MESSAGE_SEND_LANES[lane],
      { [MESSAGE_SEND_LANES[lane].jobs.sendMessage]: sendMessage },
      { ...common, concurrency: concurrency[lane], onJobStart: startedIn(lane) },
    );
  const chunks = createJobWorker(
    MESSAGE_SEND_CHUNKS_QUEUE,
    { [MESSAGE_SEND_CHUNKS_QUEUE.jobs.sendChunk]: { process: sendChunk.process, retry: { onFailedForGood: sendChunk.onFailedForGood } } },
    { ...common, concurrency: CHUNKS_AT_ONCE, onJobStart: startedIn('bulk') },
  );
  return [laneWorker('transactional'), laneWorker('bulk'), chunks];
}
