import type { Job, Queue } from 'bullmq';
import type { Cluster, Redis } from 'ioredis';
import {
  MESSAGE_SEND_CHUNKS_QUEUE,
  MESSAGE_SEND_LANES,
  sendChunkBulkJob,
  type SendChunkJob,
  type SendMessageJob,
  type TrafficLane,
} from './contracts/message-send.queue';
import { openQueue } from './queue-contract';

/** A message that waits in a lane: its own job, or its chunk (docs/messages.md#chunk-lifecycle). */
export interface WaitingMessage {
  data: SendMessageJob;
  /** The message's own job; absent while the message waits inside a chunk, which cannot be removed for it. */
  ownJob?: Job<SendMessageJob>;
}

/** Both lanes' send queues (docs/messages.md#traffic-lanes): where a message waits until the dispatcher persists it. */
export interface SendLanes {
  /** The lane's queue of single jobs. */
  of(lane: TrafficLane): Queue<SendMessageJob>;
  /** The bulk lane's chunks (docs/messages.md#chunk-lifecycle). */
  readonly chunks: Queue<SendChunkJob>;
  /** Every send queue: both lanes' single jobs, and the chunks. */
  readonly all: readonly Queue[];
  /** The waiting job of a message, in whichever lane it is (job id = message id); both asked in one round trip. */
  getJob(messageId: string): Promise<Job<SendMessageJob> | undefined>;
  /** A message not yet stored, from its own job or from the chunk that carries it. */
  findWaiting(messageId: string): Promise<WaitingMessage | undefined>;
  /** Adds chunks to the bulk lane, after recording which chunk holds each message so that reads find it. */
  addChunks(chunks: readonly SendChunkJob[]): Promise<void>;
  /** Forgets which chunk held these messages: the dispatcher stored them, and reads find them in PostgreSQL. */
  forgetChunkMembers(messageIds: readonly string[]): Promise<void>;
  /** Removes a message's waiting job from whichever lane holds it; a job a worker holds stays. */
  remove(messageId: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * Message id → chunk id of the messages that wait in a chunk and are not stored yet. One hash under the
 * queues' prefix, so it shares their Redis Cluster slot (docs/storage-layout.md#redis-keys-and-cluster).
 */
export function chunkIndexKey(prefix: string): string {
  return `${prefix}:chunk-of`;
}

export function openSendLanes(options: { connection: Redis | Cluster; prefix: string }): SendLanes {
  const redis = options.connection;
  const transactional = openQueue(MESSAGE_SEND_LANES.transactional, options);
  const bulk = openQueue(MESSAGE_SEND_LANES.bulk, options);
  const chunksQueue = openQueue(MESSAGE_SEND_CHUNKS_QUEUE, options);
  const byLane = { transactional, bulk } as const;
  const indexKey = chunkIndexKey(options.prefix);
  const getJob = async (messageId: string) => {
    const found = await Promise.all([transactional.getJob(messageId), bulk.getJob(messageId)]);
    return found.find((job) => job !== undefined);
  };
  return {
    of: (lane) => byLane[lane],
    chunks: chunksQueue,
    all: [transactional, bulk, chunksQueue] as Queue[],
    getJob,
    async findWaiting(messageId) {
      const job = await getJob(messageId);
      if (job) return { data: job.data, ownJob: job };
      const chunkId = await redis.hget(indexKey, messageId);
      const chunk = chunkId ? await chunksQueue.getJob(chunkId) : undefined;
      if (!chunk) return undefined;
      const data = chunk.data.messages.find((m) => m.message_id === messageId);
      return data ? { data } : undefined;
    },
    async addChunks(added) {
      if (added.length === 0) return;
      const members = added.flatMap((chunk) => chunk.messages.flatMap((m) => [m.message_id, chunk.chunk_id]));
      await redis.hset(indexKey, ...members);
      await chunksQueue.addBulk(added.map(sendChunkBulkJob));
    },
    async forgetChunkMembers(messageIds) {
      if (messageIds.length > 0) await redis.hdel(indexKey, ...messageIds);
    },
    async remove(messageId) {
      const removed = await Promise.all([transactional.remove(messageId), bulk.remove(messageId)]);
      return removed[0] + removed[1];
    },
    async close() {
      await Promise.all([transactional.close(), bulk.close(), chunksQueue.close()]);
    },
  };
}
