import type { Queryable } from './db';
import type { StoredEvent } from './message-change';
import { createEventsRepository } from './repositories/events.repository';

/**
 * The part of a BullMQ `Queue` the publisher needs. Typed structurally because the store does not
 * depend on BullMQ; pass the event-fanout queue of `@switchboard/queues`.
 */
export interface EventFanoutQueueLike {
  addBulk(jobs: Array<{ name: string; data: { event_id: string }; opts: FanOutJobOptions }>): Promise<unknown>;
}

export interface FanOutJobOptions {
  jobId: string;
  removeOnComplete: { count: number };
  removeOnFail: { count: number };
  attempts?: number;
  backoff?: { type: 'exponential'; delay: number };
}

/**
 * Fan-out is idempotent, so a store or Redis error while it runs is retried rather than ending the job:
 * a failed fan-out job keeps its job id (the event id), so neither the sweeper nor the producer could
 * enqueue that event again, and it would never be delivered.
 */
export const FAN_OUT_RETRY = { attempts: 10, backoff: { type: 'exponential', delay: 1_000 } } as const;

/** Job name on the event-fanout queue; equals `WEBHOOK_JOB_NAMES.fanOutEvent` of `@switchboard/queues`. */
export const FAN_OUT_EVENT_JOB = 'fan-out-event';

export interface EventPublisher {
  /**
   * Enqueues one fan-out job per event (job id = event id, so BullMQ drops a second enqueue) and then
   * sets `published_at`. Throws when Redis or the store fails: callers log and carry on, because the
   * webhook-delivery outbox sweeper publishes whatever stays unpublished.
   */
  publish(events: readonly Pick<StoredEvent, 'id'>[]): Promise<void>;
}

export function createEventPublisher({ queue, db, clock = () => new Date() }: { queue: EventFanoutQueueLike; db: Queryable; clock?: () => Date }): EventPublisher {
  const events = createEventsRepository(db);
  return {
    async publish(batch) {
      if (batch.length === 0) return;
      // Enqueue first, mark second: a crash in between leaves the event unpublished, and publishing it
      // again is harmless (same job id), whereas the other order could lose it.
      await queue.addBulk(
        batch.map((e) => ({
          name: FAN_OUT_EVENT_JOB,
          data: { event_id: e.id },
          opts: { jobId: e.id, removeOnComplete: { count: 10_000 }, removeOnFail: { count: 50_000 }, ...FAN_OUT_RETRY },
        })),
      );
      await events.markPublished(
        batch.map((e) => e.id),
        clock(),
      );
    },
  };
}
