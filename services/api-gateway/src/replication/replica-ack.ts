import type { Redis } from 'ioredis';
import { ReplicationUnconfirmedError } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';

/**
 * How long `WAIT` waits for the replicas: one in sync answers within a network round trip, a second covers a
 * replica's disk or scheduling stall, and it stays under the command timeout (2 s) so that a lagging replica
 * gets our 503 `replication_unconfirmed`, not a timed-out command.
 */
export const REPLICA_ACK_TIMEOUT_MS = 1_000;

/** The marker key only has to exist for the length of one WAIT; it expires instead of staying forever. */
const MARKER_TTL_MS = 60_000;

/**
 * Resolves once REDIS_MIN_REPLICAS_ACK replicas hold every write made so far on the master of the queue
 * prefix's slot; throws 503 `replication_unconfirmed` when fewer confirm within the timeout or the WAIT
 * itself fails: the writes were made, so the answer must not say nothing was accepted. With 0 it sends
 * nothing (docs/operations.md#redis-failover).
 */
export type ReplicaAck = () => Promise<void>;

export interface ReplicaAckOptions {
  /**
   * A connection of its own: WAIT blocks the connection it is sent on until the replicas answer, and the
   * requests' other commands must not queue behind it.
   */
  redis: Redis;
  /** QUEUE_PREFIX: its hash tag names the slot, and so the master, that the acceptance writes went to. */
  keyPrefix: string;
  minReplicas: number;
  logger: Pick<Logger, 'warn'>;
  /** @defaultValue REPLICA_ACK_TIMEOUT_MS */
  timeoutMs?: number;
}

export const noReplicaAck: ReplicaAck = () => Promise.resolve();

export function createReplicaAck({ redis, keyPrefix, minReplicas, logger, timeoutMs = REPLICA_ACK_TIMEOUT_MS }: ReplicaAckOptions): ReplicaAck {
  if (minReplicas === 0) return noReplicaAck;
  const marker = `${keyPrefix}:gateway:replica-ack`;
  return async () => {
    // WAIT counts the replicas that reached this connection's last write. A master streams its writes to the
    // replicas in one order, so the marker's SET, sent just before, puts that point past every write on this
    // master, whichever connection made it (the job's add, the Idempotency-Key record). The SET's key routes
    // the pipeline, WAIT included, to the master of the prefix's slot on a Redis Cluster too.
    let acknowledged: number;
    try {
      const replies = await redis.pipeline().set(marker, '1', 'PX', MARKER_TTL_MS).wait(minReplicas, timeoutMs).exec();
      const failed = replies?.find(([error]) => error !== null)?.[0];
      if (!replies || failed) throw failed ?? new Error('the WAIT pipeline was not run');
      acknowledged = Number(replies[1][1]);
    } catch (error) {
      logger.warn('replica acknowledgement failed', { error: (error as Error)?.message });
      throw new ReplicationUnconfirmedError();
    }
    if (acknowledged < minReplicas) {
      logger.warn('replicas behind', { acknowledged, required: minReplicas, timeout_ms: timeoutMs });
      throw new ReplicationUnconfirmedError();
    }
  };
}
