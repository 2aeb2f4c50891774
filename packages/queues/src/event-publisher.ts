import type { Logger } from '@switchboard/logger';
import { createBatcher } from '@switchboard/runtime';
import { enqueueEventFanOut, type FanOutEventJob } from './contracts/event-fanout.queue';
import { partitionOf, type Partitioned } from './partitions';
import type { BulkJobAdder } from './queue-contract';
import { noReplicaAck, type ReplicaAck } from './replica-ack';

/** The SQL side of publishing: `events.published_at`, which `@switchboard/store`'s events repository sets. */
export interface EventOutbox {
  markPublished(ids: string[], at: Date): Promise<void>;
  /**
   * Marks published the events no target would receive and returns the ids of the others. When the outbox
   * has it, only those others get a fan-out job: an account without webhook endpoints, whose messages have
   * no callback_url, costs no Redis work per event (docs/performance/dispatch.md#dispatch). @defaultValue every event is fanned out
   */
  publishUntargeted?(ids: readonly string[], at: Date): Promise<string[]>;
}

export interface EventPublisher {
  /**
   * Enqueues one fan-out job per event and then marks the events published. Throws when Redis or the
   * store fails; the outbox sweeper of webhook-delivery publishes whatever stays unpublished. An event
   * inserted already published (`published: true`, no target would receive it) is skipped.
   */
  publish(events: readonly PublishableEvent[]): Promise<void>;
}

/** An event as its producer stored it; `published` when it was inserted already published. */
export interface PublishableEvent {
  id: string;
  published?: boolean;
}

export function createEventPublisher({
  queue,
  outbox,
  clock = () => new Date(),
  replicaAck = noReplicaAck,
}: {
  queue: BulkJobAdder<FanOutEventJob>;
  outbox: EventOutbox;
  clock?: () => Date;
  /**
   * Confirms the fan-out jobs on REDIS_MIN_REPLICAS_ACK replicas before the events are marked published: a job lost
   * with its master would otherwise leave an event marked published that nobody delivers, out of the sweeper's
   * reach (docs/operations.md#redis-failover). @defaultValue none
   */
  replicaAck?: ReplicaAck;
}): EventPublisher {
  return {
    async publish(events) {
      const all = events.filter((e) => !e.published).map((e) => e.id);
      if (all.length === 0) return;
      const ids = outbox.publishUntargeted ? await outbox.publishUntargeted(all, clock()) : all;
      if (ids.length === 0) return;
      // Enqueue first, mark second: a crash in between leaves the event unpublished, and publishing it
      // again is harmless (same job id), whereas the other order could lose it.
      await enqueueEventFanOut(queue, ids);
      await replicaAck();
      await outbox.markPublished(ids, clock());
    },
  };
}

/** Events per publish at most: bounds one `addBulk` (one MULTI) and one `UPDATE … ANY(…)` when many jobs finish in the same turn. */
const MAX_EVENTS_PER_PUBLISH = 500;

/**
 * Publishes the events of every caller that arrives within one turn of the event loop together: one
 * `addBulk` and one `markPublished` for all of them, instead of one of each per change, when many jobs
 * run at once (docs/performance/dispatch.md#dispatch). One caller's events are never split; each caller
 * still learns whether its own events went out (a failed publish fails every caller it carried).
 */
export function createBatchingEventPublisher(publisher: EventPublisher, maxBatch = MAX_EVENTS_PER_PUBLISH): EventPublisher {
  const publishTogether = createBatcher<readonly PublishableEvent[], void>({
    runMany: async (callers) => {
      await publisher.publish(callers.flat());
      return callers.map(() => undefined);
    },
    flush: 'next-turn',
    maxSize: maxBatch,
    sizeOf: (events) => events.length,
    onGroupFailure: 'fail-group',
  });
  return {
    publish: (events) => (events.length === 0 ? Promise.resolve() : publishTogether(events)),
  };
}

/**
 * Hands events, already committed with the change they describe, on to webhook fan-out. Never throws:
 * the `events` table is the outbox, so a failure loses nothing; it is logged (with the caller's
 * fields) and the caller's work goes on.
 */
export type PublishEvents<Event extends PublishableEvent = PublishableEvent> = (events: readonly Event[], fields?: Record<string, unknown>) => Promise<void>;

export function publishEventsOrLeaveInOutbox(publisher: EventPublisher, logger: Pick<Logger, 'error'>): PublishEvents {
  return async (events, fields = {}) => {
    try {
      await publisher.publish(events);
    } catch (error) {
      logger.error('publishing events failed; they stay in the outbox', { ...fields, events: events.length, error: (error as Error).message });
    }
  };
}

/** An event publisher over every queue partition: each event goes to its account's (the outbox sweeper's). */
export function eventPublisherByAccount(parts: readonly EventPublisher[]): {
  publish(events: ReadonlyArray<PublishableEvent & { account_id: string }>): Promise<void>;
} {
  const publish = publishEventsByAccount({ parts: parts.map((p) => (events: readonly PublishableEvent[]) => p.publish(events)) });
  return { publish: (events) => publish(events) };
}

/**
 * Publishes each event through its account's queue partition (docs/storage-layout.md#redis-keys-and-cluster): a
 * caller whose events may belong to several accounts (receipts, inbound replies) hands them over in one call.
 */
export function publishEventsByAccount<Event extends PublishableEvent & { account_id: string }>(
  publishers: Pick<Partitioned<PublishEvents<Event>>, 'parts'>,
): PublishEvents<Event> {
  const { parts } = publishers;
  if (parts.length === 1) return parts[0];
  return async (events, fields) => {
    const byPartition = new Map<number, Event[]>();
    for (const event of events) {
      const index = partitionOf(event.account_id, parts.length);
      byPartition.set(index, [...(byPartition.get(index) ?? []), event]);
    }
    await Promise.all([...byPartition].map(([index, group]) => parts[index](group, fields)));
  };
}
