import { exponentialRetry, JOB_RETENTION } from '../job-options';
import { payloadType, type BulkJobAdder, type QueueContract } from '../queue-contract';

/**
 * Events whose webhook deliveries are to be planned: produced by every service that commits events
 * (through the event publisher) and by the gateway's redelivery, consumed by webhook-delivery.
 * Renaming this queue or its job needs a migration plan: waiting jobs would be orphaned.
 */
export const EVENT_FANOUT_QUEUE = {
  name: 'event-fanout',
  jobs: { fanOutEvent: 'fan-out-event' },
  /**
   * Fan-out is idempotent, so a store or Redis error while it runs is retried rather than ending the
   * job: a failed fan-out job keeps its job id (the event id), so neither the outbox sweeper nor the
   * producer could enqueue that event again, and it would never be delivered.
   */
  jobOptions: { ...exponentialRetry(10, 1_000), ...JOB_RETENTION },
  payload: payloadType<FanOutEventJob>(),
} as const satisfies QueueContract;

/** Carries the id only: the event row is the truth. */
export interface FanOutEventJob {
  event_id: string;
}

/** Job id = event id, so a second publish of the same event (sweeper, retry) is dropped by BullMQ. */
export function enqueueEventFanOut(queue: BulkJobAdder<FanOutEventJob>, eventIds: readonly string[]): Promise<unknown> {
  return queue.addBulk(
    eventIds.map((id) => ({ name: EVENT_FANOUT_QUEUE.jobs.fanOutEvent, data: { event_id: id }, opts: { ...EVENT_FANOUT_QUEUE.jobOptions, jobId: id } })),
  );
}

/**
 * A redelivery is a new fan-out under a fresh job id (`<event id>-redeliver-<suffix>`): the event's first
 * fan-out job may still be kept as completed under the event id.
 */
export function enqueueEventRedelivery(queue: BulkJobAdder<FanOutEventJob>, eventId: string, uniqueSuffix: string): Promise<unknown> {
  const jobId = `${eventId}-redeliver-${uniqueSuffix}`;
  return queue.addBulk([{ name: EVENT_FANOUT_QUEUE.jobs.fanOutEvent, data: { event_id: eventId }, opts: { ...EVENT_FANOUT_QUEUE.jobOptions, jobId } }]);
}
