import type { DeliveryForAttempt, DeliveryTarget, EventsRepository, FanOutPlan, PendingDelivery, WebhookDeliveriesRepository } from '@switchboard/store';
import { createMicroBatcher } from './micro-batcher';

/**
 * The per-job store calls of the processors, each coalesced with the same call of concurrent jobs
 * (see micro-batcher.ts): at 64 jobs in flight, one query serves many attempts instead of one.
 */
export function createBatchedStore({ events, deliveries, maxBatch }: { events: EventsRepository; deliveries: WebhookDeliveriesRepository; maxBatch?: number }) {
  return {
    loadPlan: createMicroBatcher(async (ids: string[]): Promise<Array<FanOutPlan | null>> => {
      const plans = await events.fanOutPlans(ids);
      return ids.map((id) => plans.get(id) ?? null);
    }, maxBatch),
    createDeliveries: createMicroBatcher(
      (inputs: Array<{ event: FanOutPlan['event']; targets: DeliveryTarget[]; at: Date }>): Promise<PendingDelivery[][]> => deliveries.createForEvents(inputs, inputs[0].at),
      maxBatch,
    ),
    loadDelivery: createMicroBatcher(async (ids: string[]): Promise<Array<DeliveryForAttempt | null>> => {
      const found = await deliveries.findForAttempt(ids);
      return ids.map((id) => found.get(id) ?? null);
    }, maxBatch),
  };
}
