import { CONCRETE_CHANNELS, REQUESTED_CHANNELS } from '@switchboard/domain';
import { e164Schema, idSchema, type JsonSchema } from '../json-schema';
import { messageRequestSchema } from '../message-request.schema';

/** Why the gateway already ruled a plan channel out; the dispatcher records it as that channel's failure. */
export const SKIP_REASONS = ['outside_customer_service_window', 'recipient_opted_out'] as const;

/** The request's own property schemas: what the gateway accepted travels in the job unchanged. */
const request = messageRequestSchema.properties as Record<string, JsonSchema>;

const senderSchema: JsonSchema = {
  type: 'object',
  required: ['e164'],
  properties: { e164: e164Schema('The number this channel sends from.'), chat_phone_number_id: { type: 'string', minLength: 1 } },
};

const byConcreteChannel = (value: JsonSchema): JsonSchema => ({
  type: 'object',
  propertyNames: { enum: [...CONCRETE_CHANNELS] },
  additionalProperties: value,
});

/**
 * The `send-message` job (`SendMessageJob` in `@switchboard/queues`): the gateway builds it from a
 * validated request, the dispatcher checks it again before persisting anything. Unknown properties
 * are allowed so that a worker of the previous release still runs a newer producer's job.
 */
export const sendMessageJobSchema: JsonSchema = {
  type: 'object',
  required: ['message_id', 'account_id', 'mode', 'channel', 'plan', 'senders', 'recipient', 'cost_units', 'created_at'],
  properties: {
    message_id: idSchema('msg'),
    account_id: { type: 'string', minLength: 1 },
    mode: { enum: ['live', 'test'] },
    channel: { type: 'string', enum: [...REQUESTED_CHANNELS] },
    plan: { type: 'array', minItems: 1, maxItems: CONCRETE_CHANNELS.length, uniqueItems: true, items: { enum: [...CONCRETE_CHANNELS] } },
    senders: byConcreteChannel(senderSchema),
    recipient: request.recipient,
    content: request.content,
    template: request.template,
    callback_url: request.callback_url,
    ttl_seconds: request.ttl_seconds,
    fallback_timeout_seconds: request.fallback_timeout_seconds,
    metadata: request.metadata,
    cost_units: { type: 'number', minimum: 0 },
    created_at: { type: 'string', format: 'date-time' },
    skipped_channels: byConcreteChannel({ enum: [...SKIP_REASONS] }),
    scheduled_until: { type: 'string', format: 'date-time' },
  },
  allOf: [
    // Exactly one of content and template, each error on the property to fix.
    { if: { required: ['content'] }, then: { properties: { template: false } }, else: { required: ['template'] } },
    // A named channel's plan is that channel alone; only `auto` has a fallback order.
    ...CONCRETE_CHANNELS.map((channel) => ({
      if: { properties: { channel: { const: channel } }, required: ['channel'] },
      then: { properties: { plan: { const: [channel] } } },
    })),
  ],
};
