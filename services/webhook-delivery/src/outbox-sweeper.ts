import type { Logger } from '@switchboard/logger';
import { createPeriodicTask } from '@switchboard/runtime';
import type { eventPublisherByAccount } from '@switchboard/queues';
import type { EventsRepository } from '@switchboard/store';

/** 500 events per sweep query: one round trip clears what a crash can leave, without a long statement. */
export const OUTBOX_BATCH_SIZE = 500;

/**
 * 5 s before the sweeper takes an unpublished event for one its producer lost (a crash between commit and publish):
 * producers publish milliseconds after their commit, even under load, so the sweeper does not race them, and a lost
 * event still goes out within seconds (docs/webhooks.md#how-nothing-is-lost).
 */
export const OUTBOX_SWEEP_AGE_MS = 5_000;

/**
 * Five sweeps per age: an event its producer left is published at most a fifth of the age late, and a sweep (one
 * indexed query) is too cheap for a shorter interval to matter.
 */
export const OUTBOX_SWEEPS_PER_AGE = 5;
export const OUTBOX_SWEEP_INTERVAL_MS = OUTBOX_SWEEP_AGE_MS / OUTBOX_SWEEPS_PER_AGE;

export interface OutboxSweeperOptions {
  events: EventsRepository;
  /** Each event to its account's queue partition (docs/storage-layout.md#redis-keys-and-cluster). */
  publisher: Pick<ReturnType<typeof eventPublisherByAccount>, 'publish'>;
  intervalMs: number;
  /** Leaves young events to their producer, which publishes right after its commit. */
  ageMs: number;
  batchSize: number;
  logger: Logger;
  clock?: () => Date;
}

/**
 * Publishes events that were committed but never enqueued (a crash between the producer's commit and
 * its publish), so no event is lost. Several processes may sweep at once: the fan-out job id is the
 * event id, so a second enqueue of the same event is dropped by BullMQ.
 */
export function createOutboxSweeper(opts: OutboxSweeperOptions) {
  const clock = opts.clock ?? (() => new Date());
  let stopped = false;

  const sweepOnce = async (): Promise<number> => {
    let total = 0;
    for (;;) {
      const batch = await opts.events.unpublished(new Date(clock().getTime() - opts.ageMs), opts.batchSize);
      if (batch.length === 0) return total;
      await opts.publisher.publish(batch);
      total += batch.length;
      if (batch.length < opts.batchSize || stopped) return total;
    }
  };

  const task = createPeriodicTask(
    async () => {
      const n = await sweepOnce();
      if (n > 0) opts.logger.info('outbox sweeper published events', { count: n });
    },
    { intervalMs: opts.intervalMs, onError: (error) => opts.logger.warn('outbox sweep failed; retrying next interval', { error: error.message }) },
  );

  return {
    sweepOnce,
    start(): void {
      stopped = false;
      task.start();
    },
    async stop(): Promise<void> {
      stopped = true;
      await task.stop();
    },
  };
}
