import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '@switchboard/logger';
import { EVENT_FANOUT_QUEUE } from './contracts/event-fanout.queue';
import { MESSAGE_SEND_CHUNKS_QUEUE, MESSAGE_SEND_LANES } from './contracts/message-send.queue';
import { MESSAGE_TIMERS_QUEUE } from './contracts/message-timers.queue';
import { PROVIDER_CALLBACKS_QUEUE } from './contracts/provider-callbacks.queue';
import { VOICE_CALLS_QUEUE } from './contracts/voice-calls.queue';
import { WEBHOOK_DELIVERY_QUEUE } from './contracts/webhook-delivery.queue';
import { partitionOf, queuePartitions } from './partitions';

/** The queues every partition has; template submissions stay under the shared tag whatever N is. */
export const PARTITIONED_QUEUES = [
  PROVIDER_CALLBACKS_QUEUE,
  MESSAGE_SEND_LANES.transactional,
  MESSAGE_SEND_LANES.bulk,
  MESSAGE_SEND_CHUNKS_QUEUE,
  MESSAGE_TIMERS_QUEUE,
  EVENT_FANOUT_QUEUE,
  WEBHOOK_DELIVERY_QUEUE,
  VOICE_CALLS_QUEUE,
].map((contract) => contract.name);

/** Where the partition count the keys were written with is recorded, under the shared tag; absent means one. */
export function partitionLayoutKey(prefix: string): string {
  return `${prefix}:queue-partitions`;
}

/** Job states that a change of the partition count would orphan: everything not finished. */
const UNFINISHED = ['wait', 'prioritized', 'delayed', 'active', 'waiting-children'] as const;

export class PartitionLayoutError extends Error {
  override readonly name = 'PartitionLayoutError';
}

export interface PartitionLayoutOptions {
  redis: Redis;
  /** QUEUE_PREFIX: the shared tag, and the base of the partitions' prefixes. */
  prefix: string;
  /** QUEUE_PARTITIONS of this process. */
  partitions: number;
  /**
   * Writes the Redis copies of PostgreSQL records (suppressions, customer windows) under the new partitions (given
   * the prefix of an account's partition) and answers how many keys it wrote. It runs once
   * the old layout holds no job and before the new count is recorded: no process serves the new layout without them.
   * @defaultValue none: the process checks, and leaves recording to one that copies
   */
  copyState?: (prefixOf: (accountId: string) => string) => Promise<number>;
  logger: Pick<Logger, 'info'>;
}

/**
 * The start-up check of docs/operations.md#changing-queue-partitions. A process whose QUEUE_PARTITIONS differs
 * from the recorded count starts only if the recorded layout's queues hold no unfinished job: it then copies the
 * state the new layout needs and records the new count. Otherwise it throws, naming the jobs and how to drain them.
 */
export async function ensurePartitionLayout({ redis, prefix, partitions, copyState, logger }: PartitionLayoutOptions): Promise<void> {
  const key = partitionLayoutKey(prefix);
  const recorded = Number((await redis.get(key)) ?? 1);
  if (recorded === partitions) return;
  const unfinished: string[] = [];
  for (const { prefix: old } of queuePartitions(prefix, recorded)) {
    for (const name of PARTITIONED_QUEUES) {
      const queue = new Queue(name, { connection: redis, prefix: old });
      try {
        const counts = await queue.getJobCounts(...UNFINISHED);
        const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
        if (total > 0) unfinished.push(`${old}:${name} ${total}`);
      } finally {
        await queue.close();
      }
    }
  }
  if (unfinished.length > 0) {
    throw new PartitionLayoutError(
      `QUEUE_PARTITIONS is ${partitions}, but Redis holds unfinished jobs written with QUEUE_PARTITIONS=${recorded} (${unfinished.join(', ')}). ` +
        `Drain them first: stop intake (kubectl scale deploy/<release>-switchboard-api-gateway --replicas=0), keep the workers running with ` +
        `QUEUE_PARTITIONS=${recorded} until this check finds no job, then start every service with QUEUE_PARTITIONS=${partitions} ` +
        `(docs/operations.md#changing-queue-partitions).`,
    );
  }
  // A process that holds no copy to write (webhook-delivery, the voice orchestrator) starts without recording: the
  // gateway and the dispatcher record the change once they have written the copies.
  if (!copyState) return;
  const next = queuePartitions(prefix, partitions);
  const copied = await copyState((accountId) => next[partitionOf(accountId, next.length)].prefix);
  // One partition is the layout without a record, as before partitions existed.
  if (partitions === 1) await redis.del(key);
  else await redis.set(key, String(partitions));
  logger.info('queue partitions changed', { from: recorded, to: partitions, copied_keys: copied });
}
