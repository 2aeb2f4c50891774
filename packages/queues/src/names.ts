/**
 * Queue names. Renaming a queue needs a migration plan: jobs already waiting in the old name are
 * orphaned by a deploy that only knows the new one.
 */
export const QUEUES = {
  /** One job per accepted message, job id = message id. Produced by the gateway, consumed by the dispatcher. */
  messageSend: 'message-send',
  /** Verified, normalised upstream callbacks (receipts, inbound replies, template reviews). */
  providerCallbacks: 'provider-callbacks',
  /** Events whose webhook deliveries are to be planned. Consumed by webhook-delivery. */
  eventFanout: 'event-fanout',
  /** One job per (event, target) delivery. Consumed by webhook-delivery. */
  webhookDelivery: 'webhook-delivery',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export const JOB_NAMES = {
  sendMessage: 'send-message',
  providerCallback: 'provider-callback',
} as const;
