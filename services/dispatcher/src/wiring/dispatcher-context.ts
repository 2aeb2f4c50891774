import type { Redis } from 'ioredis';
import type { Logger } from '@switchboard/logger';
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
  clock: () => number;
}
