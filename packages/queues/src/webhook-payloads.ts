/** Job names of the webhook queues; the store's event publisher uses the same fan-out name. */
export const WEBHOOK_JOB_NAMES = {
  /** On QUEUES.eventFanout, job id = event id (a redelivery uses `<event id>-redeliver-<n>`). */
  fanOutEvent: 'fan-out-event',
  /** On QUEUES.webhookDelivery, job id = `<delivery id>-g<generation>`. */
  deliverWebhook: 'deliver-webhook',
} as const;

/** Plans the deliveries of one event. Carries the id only: the event row is the truth. */
export interface FanOutEventJob {
  event_id: string;
}

/** One delivery attempt series; a job whose generation is older than the row's is stale. */
export interface DeliverWebhookJob {
  delivery_id: string;
  generation: number;
}

export function deliveryJobId(deliveryId: string, generation: number): string {
  return `${deliveryId}-g${generation}`;
}
