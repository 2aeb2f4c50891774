import type { Redis } from 'ioredis';
import { ReplicationUnconfirmedError } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';
import { createBatcher } from '@switchboard/runtime';
import { createProducerConnection, type RedisTarget } from './connections';

/**
 * How long `WAIT` waits for the replicas: one in sync answers within a network round trip, a second covers a
 * replica's disk or scheduling stall, and it stays under the command timeout (2 s) so that a lagging replica
 * gets our 503 `replication_unconfirmed`, not a timed-out command.
 */
export const REPLICA_ACK_TIMEOUT_MS = 1_000;

/** The marker key only has to exist for the length of one WAIT; it expires instead of staying forever. */
const MARKER_TTL_MS = 60_000;

/** Any number of callers can share one WAIT (it covers every write before it); the bound only caps one group's array. */
const SHARED_WAIT_MAX_CALLERS = 10_000;

/**
 * Resolves once REDIS_MIN_REPLICAS_ACK replicas hold every write made so far on the master of the queue
 * prefix's slot; throws `replication_unconfirmed` (a 503 at the gateway) when fewer confirm within the timeout or
 * the WAIT itself fails. Whoever tells the outside world that a write is kept waits for it first: the gateway before
 * its 202, the dispatcher before it acknowledges an SMSC's deliver_sm, an event publisher before it marks events
 * published. With 0 it sends nothing (docs/operations.md#redis-failover).
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
  const marker = `${keyPrefix}:replica-ack`;
  async function waitForReplicas(): Promise<void> {
    // WAIT counts the replicas that reached this connection's last write. A master streams its writes to the
    // replicas in one order, so the marker's SET, sent just before, puts that point past every write on this
    // master, whichever connection made it (the job's add, the Idempotency-Key record). The SET's key routes
    // the pipeline, WAIT included, to the master of the prefix's slot on a Redis Cluster too.
    const confirm = () => redis.pipeline().set(marker, '1', 'PX', MARKER_TTL_MS).wait(minReplicas, timeoutMs).exec();
    let acknowledged: number;
    try {
      let replies = await confirm();
      if (replies?.[0][0]?.message.startsWith('MOVED')) {
        // The slot has a new master (a failover). ioredis does not follow a redirection for a pipeline whose other
        // command succeeded (WAIT, on the node it wrongly chose), so its slot map stays stale; a plain command
        // follows it and updates the map, and the pipeline then reaches the new master.
        await redis.set(marker, '1', 'PX', MARKER_TTL_MS);
        replies = await confirm();
      }
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
  }

  // One WAIT at a time: the callers arriving while it runs share the next one (their writes may come after its
  // marker). WAIT blocks its connection, so WAITs sent side by side would queue behind each other anyway.
  const shared = createBatcher<void, void>({
    runMany: async (callers) => {
      await waitForReplicas();
      return callers.map(() => undefined);
    },
    flush: 'after-previous',
    maxSize: SHARED_WAIT_MAX_CALLERS,
    onGroupFailure: 'fail-group',
  });
  return () => shared();
}

/** Above the WAIT's own timeout, so that a lagging replica ends the WAIT, not the command. */
const REPLICA_ACK_COMMAND_TIMEOUT_MS = 2 * REPLICA_ACK_TIMEOUT_MS;

/** How long a process waits at start-up for the acknowledgement's connection before it refuses to start. */
const REPLICA_ACK_CONNECT_TIMEOUT_MS = 30_000;

export interface OpenedReplicaAck {
  ack: ReplicaAck;
  close: () => Promise<unknown>;
}

/**
 * A process's acknowledgement for one queue prefix (partition): with REDIS_MIN_REPLICAS_ACK, on a connection of its
 * own (WAIT blocks the connection it is on); without, nothing: no connection, no WAIT (docs/operations.md#redis-failover).
 */
export async function openReplicaAck(
  target: RedisTarget,
  { keyPrefix, minReplicas, logger }: Pick<ReplicaAckOptions, 'keyPrefix' | 'minReplicas'> & { logger: Pick<Logger, 'warn' | 'info'> },
): Promise<OpenedReplicaAck> {
  if (minReplicas === 0) return { ack: noReplicaAck, close: () => Promise.resolve() };
  const connection = createProducerConnection(target, { commandTimeout: REPLICA_ACK_COMMAND_TIMEOUT_MS });
  // Outages are logged by the process's main connection; an unhandled 'error' event would crash the process.
  connection.on('error', () => undefined);
  await untilReady(connection, REPLICA_ACK_CONNECT_TIMEOUT_MS);
  logger.info('replica acknowledgement on', { min_replicas: minReplicas, prefix: keyPrefix });
  return {
    ack: createReplicaAck({ redis: connection, keyPrefix, minReplicas, logger }),
    close: () => connection.quit().catch(() => connection.disconnect()),
  };
}

/** Resolves once the connection is ready; rejects after `timeoutMs`. */
export function untilReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Redis not ready after ${timeoutMs} ms`)), timeoutMs);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
