import type { Job } from 'bullmq';
import {
  createJobWorker,
  MESSAGE_SEND_CHUNKS_QUEUE,
  MESSAGE_SEND_LANES,
  type JobWorker,
  type JobWorkerOptions,
  type QueuePartition,
  type TrafficLane,
} from '@switchboard/queues';
import { CHUNKS_AT_ONCE } from '../processors/send-chunk.processor';
import type { Sending } from '../wiring/sending.wiring';

/**
 * Stalls (a dispatcher killed mid-job) a send job survives before BullMQ fails it. A chunk is taken up many
 * times in its life (after every turn), so BullMQ's default of one would turn a second crash into a failed
 * chunk; a job that kills its process every time still ends after this many.
 */
export const SEND_JOB_MAX_STALLS = 10;

export interface SendWorkersDeps {
  /** Each queue partition's send path (sending.wiring.ts), in partition order; the workers serve `options.partitions`. */
  partitions: ReadonlyArray<Pick<Sending, 'sendMessage' | 'sendChunk' | 'laneTurns'>>;
  options: JobWorkerOptions;
  concurrency: Record<TrafficLane, number>;
}

/**
 * One worker per send queue, each with slots of its own: a bulk backlog never holds a transactional slot
 * (docs/messages.md#traffic-lanes), and the bulk lane's chunks have a few slots beside its single jobs. A lane's
 * slots are shared by the partitions served (createJobWorker), so lanes hold across partitions too.
 */
export function createSendWorkers({ partitions, options, concurrency }: SendWorkersDeps): JobWorker[] {
  const common = { ...options, maxStalledCount: SEND_JOB_MAX_STALLS };
  const startedIn = (lane: TrafficLane) => (job: Job, partition: QueuePartition) => partitions[partition.index].laneTurns.startedIn(lane)(job);
  const laneWorker = (lane: TrafficLane) =>
    createJobWorker(MESSAGE_SEND_LANES[lane], (partition) => ({ [MESSAGE_SEND_LANES[lane].jobs.sendMessage]: partitions[partition.index].sendMessage }), {
      ...common,
      concurrency: concurrency[lane],
      onJobStart: startedIn(lane),
    });
  const chunks = createJobWorker(
    MESSAGE_SEND_CHUNKS_QUEUE,
    (partition) => {
      const { sendChunk } = partitions[partition.index];
      return { [MESSAGE_SEND_CHUNKS_QUEUE.jobs.sendChunk]: { process: sendChunk.process, retry: { onFailedForGood: sendChunk.onFailedForGood } } };
    },
    { ...common, concurrency: CHUNKS_AT_ONCE, onJobStart: startedIn('bulk') },
  );
  return [laneWorker('transactional'), laneWorker('bulk'), chunks];
}
