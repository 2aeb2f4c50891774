import { enqueueDeliveries, type BulkJobAdder, type DeliverWebhookJob, type DeliveryToEnqueue } from '@switchboard/queues';
import type {
  AttemptRecord,
  DeliveryForAttempt,
  DeliveryTarget,
  EventsRepository,
  FanOutPlan,
  PendingDelivery,
  WebhookDeliveriesRepository,
} from '@switchboard/store';
import { createBatcher } from '@switchboard/runtime';

/** Inputs per statement at most: the 64 jobs a worker runs at once fit in one, and a statement stays small. */
const DEFAULT_MAX_BATCH = 100;

/**
 * One store or queue call for the calls that concurrent jobs make in the same turn of the event loop
 * (docs/architecture.md#batching): each job needs one row, and on a small machine each round trip (a syscall,
 * a wake-up of a PostgreSQL backend) costs more than the row itself. Nothing is cached: each call still sees
 * the store as it is when its batch runs. A failed batch fails every call in it, which BullMQ retries like
 * any other store error.
 */
function inOneTurn<I, O>(runMany: (inputs: I[]) => Promise<O[]>, maxBatch: number): (input: I) => Promise<O> {
  return createBatcher<I, O>({ runMany, flush: 'next-turn', maxSize: maxBatch, onGroupFailure: 'fail-group' });
}

/**
 * The per-job store and queue calls of the processors, each coalesced with the same call of concurrent
 * jobs: at 64 jobs in flight, one round trip serves many jobs instead of one.
 */
export function createBatchedStore({
  events,
  deliveries,
  deliveryQueue,
  retryScheduleMs,
  maxBatch = DEFAULT_MAX_BATCH,
}: {
  events: EventsRepository;
  deliveries: WebhookDeliveriesRepository;
  deliveryQueue: BulkJobAdder<DeliverWebhookJob>;
  retryScheduleMs: readonly number[];
  maxBatch?: number;
}) {
  return {
    loadPlan: inOneTurn(async (ids: string[]): Promise<Array<FanOutPlan | null>> => {
      const plans = await events.fanOutPlans(ids);
      return ids.map((id) => plans.get(id) ?? null);
    }, maxBatch),
    // The deliveries are read for their first attempt by the statement that creates them.
    createDeliveries: inOneTurn(
      (
        inputs: Array<{ event: FanOutPlan['event']; targets: DeliveryTarget[]; at: Date }>,
      ): Promise<Array<Array<PendingDelivery & { forAttempt: DeliveryForAttempt }>>> => deliveries.createForEventsToAttempt(inputs, inputs[0].at),
      maxBatch,
    ),
    // One addBulk (one MULTI) for the delivery jobs of every fan-out running together.
    enqueueDeliveries: inOneTurn(async (lists: DeliveryToEnqueue[][]): Promise<void[]> => {
      await enqueueDeliveries(deliveryQueue, lists.flat(), retryScheduleMs);
      return lists.map(() => undefined);
    }, maxBatch),
    markPublished: inOneTurn(async (inputs: Array<{ id: string; at: Date }>): Promise<void[]> => {
      await events.markPublished(
        inputs.map((i) => i.id),
        inputs[0].at,
      );
      return inputs.map(() => undefined);
    }, maxBatch),
    loadDelivery: inOneTurn(async (ids: string[]): Promise<Array<DeliveryForAttempt | null>> => {
      const found = await deliveries.findForAttempt(ids);
      return ids.map((id) => found.get(id) ?? null);
    }, maxBatch),
    // The hot write: a successful attempt (attempt row, delivered status, the endpoint's failure run ended).
    storeSuccess: inOneTurn(async (items: Array<{ attempt: AttemptRecord; generation: number }>): Promise<void[]> => {
      await deliveries.storeSuccesses(items);
      return items.map(() => undefined);
    }, maxBatch),
  };
}
