import { createBatchingEventPublisher, createEventPublisher, EVENT_FANOUT_QUEUE, openQueue, publishEventsOrLeaveInOutbox } from '@switchboard/queues';
import { createEventsRepository, createEventTargetsRepository } from '@switchboard/store';
import type { DispatcherContext } from './dispatcher-context';

/**
 * Events are committed with each change (the outbox); publishing hands them to webhook fan-out at once, and
 * webhook-delivery's sweeper publishes any that a crash left behind (docs/webhooks.md#how-nothing-is-lost).
 */
export function wireEventPublishing({ db, logger, queueOptions, replicaAck }: DispatcherContext) {
  const eventFanoutQueue = openQueue(EVENT_FANOUT_QUEUE, queueOptions);
  const publishEvents = publishEventsOrLeaveInOutbox(
    createBatchingEventPublisher(
      createEventPublisher({
        queue: eventFanoutQueue,
        outbox: { ...createEventsRepository(db), ...createEventTargetsRepository(db) },
        replicaAck,
      }),
    ),
    logger,
  );
  return { eventFanoutQueue, publishEvents };
}
export type EventPublishing = ReturnType<typeof wireEventPublishing>;
