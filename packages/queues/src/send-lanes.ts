import type { ConnectionOptions, Job, Queue } from 'bullmq';
import { MESSAGE_SEND_LANES, type SendMessageJob, type TrafficLane } from './contracts/message-send.queue';
import { openQueue } from './queue-contract';

/** Both lanes' send queues (docs/messages.md#traffic-lanes): where a message waits until the dispatcher persists it. */
export interface SendLanes {
  of(lane: TrafficLane): Queue<SendMessageJob>;
  readonly all: ReadonlyArray<Queue<SendMessageJob>>;
  /** The waiting job of a message, in whichever lane it is (job id = message id); both asked in one round trip. */
  getJob(messageId: string): Promise<Job<SendMessageJob> | undefined>;
  /** Removes a message's waiting job from whichever lane holds it; a job a worker holds stays. */
  remove(messageId: string): Promise<number>;
  close(): Promise<void>;
}

export function openSendLanes(options: { connection: ConnectionOptions; prefix: string }): SendLanes {
  const transactional = openQueue(MESSAGE_SEND_LANES.transactional, options);
  const bulk = openQueue(MESSAGE_SEND_LANES.bulk, options);
  const byLane = { transactional, bulk } as const;
  return {
    of: (lane) => byLane[lane],
    all: [transactional, bulk],
    async getJob(messageId) {
      const found = await Promise.all([transactional.getJob(messageId), bulk.getJob(messageId)]);
      return found.find((job) => job !== undefined);
    },
    async remove(messageId) {
      const removed = await Promise.all([transactional.remove(messageId), bulk.remove(messageId)]);
      return removed[0] + removed[1];
    },
    async close() {
      await Promise.all([transactional.close(), bulk.close()]);
    },
  };
}
