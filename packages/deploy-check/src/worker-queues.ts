import { QUEUES, TEMPLATE_QUEUES } from '@switchboard/queues';

/**
 * Which worker Deployment consumes which BullMQ queue (services/dispatcher/src/main.ts and
 * services/webhook-delivery/src/main.ts). The only place in this package that reads the queue names.
 */
export const WORKER_QUEUES: Readonly<Record<string, readonly string[]>> = {
  dispatcher: [QUEUES.messageSend, QUEUES.providerCallbacks, TEMPLATE_QUEUES.templateSubmit],
  'webhook-delivery': [QUEUES.eventFanout, QUEUES.webhookDelivery],
};

/** Every queue packages/queues defines: each must be scaled on by the worker that drains it. */
export const ALL_QUEUES: readonly string[] = [...Object.values(QUEUES), ...Object.values(TEMPLATE_QUEUES)];
