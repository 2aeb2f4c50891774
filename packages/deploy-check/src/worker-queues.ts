import * as queues from '@switchboard/queues';
import {
  EVENT_FANOUT_QUEUE,
  MESSAGE_SEND_BULK_QUEUE,
  MESSAGE_SEND_CHUNKS_QUEUE,
  MESSAGE_SEND_QUEUE,
  MESSAGE_TIMERS_QUEUE,
  PROVIDER_CALLBACKS_QUEUE,
  TEMPLATE_SUBMIT_QUEUE,
  VOICE_CALLS_QUEUE,
  WEBHOOK_DELIVERY_QUEUE,
} from '@switchboard/queues';

/**
 * Which worker Deployment consumes which BullMQ queue (services/dispatcher/src/main.ts and
 * services/webhook-delivery/src/main.ts). The only place in this package that reads the queue names.
 */
export const WORKER_QUEUES: Readonly<Record<string, readonly string[]>> = {
  dispatcher: [
    MESSAGE_SEND_QUEUE.name,
    MESSAGE_SEND_BULK_QUEUE.name,
    MESSAGE_SEND_CHUNKS_QUEUE.name,
    MESSAGE_TIMERS_QUEUE.name,
    PROVIDER_CALLBACKS_QUEUE.name,
    TEMPLATE_SUBMIT_QUEUE.name,
  ],
  'webhook-delivery': [EVENT_FANOUT_QUEUE.name, WEBHOOK_DELIVERY_QUEUE.name],
  'voice-orchestrator': [VOICE_CALLS_QUEUE.name],
};

const isQueueContract = (value: unknown): value is { name: string; jobs: object } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { name?: unknown }).name === 'string' &&
  typeof (value as { jobs?: unknown }).jobs === 'object';

/** Every queue contract packages/queues exports: each must be scaled on by the worker that drains it. */
export const ALL_QUEUES: readonly string[] = Object.values<unknown>(queues)
  .filter(isQueueContract)
  .map((contract) => contract.name);
