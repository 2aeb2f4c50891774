import { enqueueDeliveries, type BulkJobAdder, type DeliverWebhookJob, type DeliveryToEnqueue } from '@switchboard/queues';
import type { AttemptRecord, DeliveryForAttempt, DeliveryTarget, EventsRepository, FanOutPlan, PendingDelivery, WebhookDeliveriesRepository } from '@switchboard/store';
import { createMicroBatcher } from './micro-batcher';

/**
 * The per-job store and queue calls of the processors, each coalesced with the same call of concurrent
 * jobs (see micro-batcher.ts): at 64 jobs in flight, one round trip serves many jobs instead of one.
 */
export function createBatchedStore({
  events,
  deliveries,
  deliveryQueue,
  retryScheduleMs,
  maxBatch,
}: {
  events: EventsRepository;
  deliveries: WebhookDeliveriesRepository;
  deliveryQueue: BulkJobAdder<DeliverWebhookJob>;
  retryScheduleMs: readonly number[];
  maxBatch?: number;
}) {
  return {
    loadPlan: createMicroBatcher(async (ids: string[]): Promise<Array<FanOutPlan | null>> => {
      const plans = await events.fanOutPlans(ids);
      return ids.map((id) => plans.get(id) ?? null);
    }, maxBatch),
    // The deliveries are read for their first attempt by the statement that creates them.
    createDeliveries: createMicroBatcher(
      (inputs: Array<{ event: FanOutPlan['event']; targets: DeliveryTarget[]; at: Date }>): Promise<Array<Array<PendingDelivery & { forAttempt: DeliveryForAttempt }>>> =>
        deliveries.createForEventsToAttempt(inputs, inputs[0].at),
      maxBatch,
    ),
    // One addBulk (one MULTI) for the delivery jobs of every fan-out running together.
    enqueueDeliveries: createMicroBatcher(async (lists: DeliveryToEnqueue[][]): Promise<void[]> => {
      await enqueueDeliveries(deliveryQueue, lists.flat(), retryScheduleMs);
      return lists.map(() => undefined);
    }, maxBatch),
    markPublished: createMicroBatcher(async (inputs: Array<{ id: string; at: Date }>): Promise<void[]> => {
      await events.markPublished(inputs.map((i) => i.id), inputs[0].at);
      return inputs.map(() => undefined);
    }, maxBatch),
    loadDelivery: createMicroBatcher(async (ids: string[]): Promise<Array<DeliveryForAttempt | null>> => {
      const found = await deliveries.findForAttempt(ids);
      return ids.map((id) => found.get(id) ?? null);
    }, maxBatch),
    // The hot write: a successful attempt (attempt row, delivered status, the endpoint's failure run ended).
    storeSuccess: createMicroBatcher(async (items: Array<{ attempt: AttemptRecord; generation: number }>): Promise<void[]> => {
      await deliveries.storeSuccesses(items);
      return items.map(() => undefined);
    }, maxBatch),
  };
}
