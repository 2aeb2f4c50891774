import type { Redis } from 'ioredis';
import type { Logger } from '@switchboard/logger';
import type { ReplicaAck } from '@switchboard/queues';
import type { Db, MessageWritesRepository } from '@switchboard/store';
import type { DispatcherConfig } from '../config';
import type { DispatcherMetrics } from '../metrics';

/** What every part of the dispatcher is built from (docs/architecture.md#services-each-its-own-process-and-image-scaled-on-its-own). */
export interface DispatcherContext {
  config: Readonly<DispatcherConfig>;
  logger: Logger;
  db: Db;
  /** The message state machine's writes. */
  store: MessageWritesRepository;
  metrics: DispatcherMetrics;
  /** Fails fast while Redis is down, so the SMSC keeps (and redelivers) a receipt that could not be queued. */
  redis: Redis;
  /**
   * The producer side of the queues the dispatcher adds to: in the context main.ts builds, under the shared tag
   * (provider callbacks, template submissions); in each partition's copy, under that partition's prefix.
   */
  queueOptions: { connection: Redis; prefix: string };
  /**
   * Confirms this context's writes on REDIS_MIN_REPLICAS_ACK replicas before they are acknowledged outside Redis
   * (docs/operations.md#redis-failover): in each partition's copy, that partition's; in main.ts's, every
   * partition's, since a provider callback's job goes to the partition of its job id.
   */
  replicaAck: ReplicaAck;
  clock: () => number;
}
