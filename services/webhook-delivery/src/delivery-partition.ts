import type { Redis } from 'ioredis';
import { createEventPublisher, EVENT_FANOUT_QUEUE, openQueue, WEBHOOK_DELIVERY_QUEUE, type ReplicaAck } from '@switchboard/queues';
import type { EventsRepository, WebhookDeliveriesRepository, WebhookEndpointsRepository } from '@switchboard/store';
import { RETRY_JITTER_RATIO } from '@switchboard/webhooks';
import { createBatchedStore } from './batched-store';
import type { WebhookDeliveryConfig } from './config';
import { createEndpointSlots, ENDPOINT_SLOT_LEASE_MS } from './endpoint-slots';
import type { createWebhookSender } from './http/webhook-sender';
import { createDeliveryAttempt } from './processors/delivery-attempt';
import { createDeliverWebhookHandler, SATURATION_DELAY_MS } from './processors/deliver-webhook.processor';
import { createFanOutEventProcessor } from './processors/fan-out-event.processor';

export interface DeliveryPartitionDeps {
  config: Readonly<WebhookDeliveryConfig>;
  redis: Redis;
  events: EventsRepository;
  endpoints: WebhookEndpointsRepository;
  deliveries: WebhookDeliveriesRepository;
  send: ReturnType<typeof createWebhookSender>;
  /** The partition's replica acknowledgement: the sweeper's jobs are confirmed before events are marked published (docs/operations.md#redis-failover). */
  replicaAck: ReplicaAck;
  onAttempt: (outcome: 'delivered' | 'failed' | 'refused', ms: number, endpointClass: 'endpoint' | 'callback_url') => void;
}

/**
 * One queue partition's webhook delivery (docs/storage-layout.md#redis-keys-and-cluster): its fan-out and delivery
 * queues, the endpoint slots of its accounts, and the processors whose onward jobs stay under `prefix`.
 */
export function wireDeliveryPartition(deps: DeliveryPartitionDeps, prefix: string) {
  const { config, redis, events, endpoints, deliveries } = deps;
  const queueOpts = { connection: redis, prefix };
  const fanoutQueue = openQueue(EVENT_FANOUT_QUEUE, queueOpts);
  const deliveryQueue = openQueue(WEBHOOK_DELIVERY_QUEUE, queueOpts);
  // Concurrent jobs share their store round trips: the store, not the CPU, bounds throughput.
  const batched = createBatchedStore({ events, deliveries, deliveryQueue, retryScheduleMs: config.retryScheduleMs });
  const clock = () => new Date();
  const slots = createEndpointSlots({
    redis,
    prefix,
    limit: config.endpointConcurrency,
    holdMs: config.timeoutMs + 5_000,
    leaseMs: ENDPOINT_SLOT_LEASE_MS,
  });
  const attemptDeps = {
    loadDelivery: batched.loadDelivery,
    storeSuccess: batched.storeSuccess,
    deliveries,
    endpoints,
    send: deps.send,
    slots,
    retryScheduleMs: config.retryScheduleMs,
    jitterRatio: RETRY_JITTER_RATIO,
    clock,
    onAttempt: deps.onAttempt,
  };
  // The first attempt of each delivery is made by the fan-out job: one BullMQ job per event, not two.
  const fanOutEvent = createFanOutEventProcessor({
    events,
    deliveries,
    loadPlan: batched.loadPlan,
    createDeliveries: batched.createDeliveries,
    enqueue: batched.enqueueDeliveries,
    markPublished: batched.markPublished,
    attemptFirst: createDeliveryAttempt(attemptDeps),
    saturationDelayMs: SATURATION_DELAY_MS,
    deliveryQueue,
    retryScheduleMs: config.retryScheduleMs,
    clock,
  });
  const deliverWebhook = createDeliverWebhookHandler({ ...attemptDeps, saturationDelayMs: SATURATION_DELAY_MS });
  return {
    fanoutQueue,
    deliveryQueue,
    slots,
    fanOutEvent,
    deliverWebhook,
    publisher: createEventPublisher({ queue: fanoutQueue, outbox: events, replicaAck: deps.replicaAck }),
  };
}
export type DeliveryPartition = ReturnType<typeof wireDeliveryPartition>;
