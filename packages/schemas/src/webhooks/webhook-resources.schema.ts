import { ALL_EVENTS, EVENT_TYPES } from '@switchboard/webhooks';
import { idSchema, type JsonSchema } from '../json-schema';

/*
 * What the `/v1/webhooks`, `/v1/events` and `/v1/account` routes answer (docs/webhooks.md), for the
 * OpenAPI document and for the tests that hold the answers to it.
 */

const timestamp: JsonSchema = { type: 'string', format: 'date-time' };
const nullableTimestamp: JsonSchema = { type: ['string', 'null'], format: 'date-time' };
const nullableText: JsonSchema = { type: ['string', 'null'] };
const secret: JsonSchema = { type: 'string', pattern: '^whsec_', description: 'Standard Webhooks secret: `whsec_` and base64.' };
const eventType: JsonSchema = { enum: [...EVENT_TYPES] };

const endpointProperties: Record<string, JsonSchema> = {
  id: idSchema('whk'),
  url: { type: 'string' },
  events: { type: 'array', items: { enum: [...EVENT_TYPES, ALL_EVENTS] } },
  description: nullableText,
  enabled: { type: 'boolean' },
  disabled_reason: { ...nullableText, description: 'Why delivery stopped: a 410 answer, or failing for too long.' },
  created_at: timestamp,
  updated_at: timestamp,
};
const endpointRequired = Object.keys(endpointProperties);

/** `GET /v1/webhooks/{id}`: an endpoint, never its secret. */
export const webhookEndpointSchema: JsonSchema = { type: 'object', required: endpointRequired, properties: endpointProperties };

/** The 201 of `POST /v1/webhooks`: the only answer that shows the secret. */
export const webhookEndpointCreatedSchema: JsonSchema = {
  type: 'object',
  required: [...endpointRequired, 'secret'],
  properties: { ...endpointProperties, secret },
};

export const webhookSecretRotationSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'secret', 'previous_secret_expires_at'],
  properties: {
    id: idSchema('whk'),
    secret,
    previous_secret_expires_at: { ...nullableTimestamp, description: 'Until then deliveries carry a second signature made with the old secret.' },
  },
};

const deliveryStatus: JsonSchema = {
  enum: ['pending', 'delivered', 'failed'],
  description: '`failed`: retries exhausted or the target disabled (a dead letter).',
};

/** One row of `GET /v1/webhooks/{id}/deliveries`: one attempt. */
export const webhookAttemptSchema: JsonSchema = {
  type: 'object',
  required: [
    'id',
    'delivery_id',
    'event_id',
    'event_type',
    'attempt',
    'url',
    'status_code',
    'latency_ms',
    'error',
    'response_size',
    'delivery_status',
    'created_at',
  ],
  properties: {
    id: idSchema('att'),
    delivery_id: idSchema('dlv'),
    event_id: idSchema('evt'),
    event_type: eventType,
    attempt: { type: 'integer', minimum: 1 },
    url: { type: 'string' },
    status_code: { type: ['integer', 'null'], description: 'Null when no HTTP answer arrived.' },
    latency_ms: { type: 'integer', minimum: 0 },
    error: nullableText,
    response_size: { type: ['integer', 'null'] },
    delivery_status: deliveryStatus,
    created_at: timestamp,
  },
};

const eventProperties: Record<string, JsonSchema> = {
  id: idSchema('evt'),
  type: eventType,
  created_at: timestamp,
  data: { type: 'object', description: 'The resource as `GET` returns it, plus `sequence`.' },
  delivery_status: { enum: ['none', 'pending', 'delivered', 'failed'], description: '`failed` marks a dead letter; `none`: nothing subscribed.' },
};

/** A row of `GET /v1/events`. */
export const eventSchema: JsonSchema = { type: 'object', required: Object.keys(eventProperties), properties: eventProperties };

/** `GET /v1/events/{id}`: the event and where each of its deliveries stands. */
export const eventDetailSchema: JsonSchema = {
  type: 'object',
  required: [...Object.keys(eventProperties), 'deliveries'],
  properties: {
    ...eventProperties,
    deliveries: {
      type: 'array',
      items: {
        type: 'object',
        required: [
          'id',
          'target',
          'endpoint_id',
          'url',
          'status',
          'attempts',
          'last_status_code',
          'last_error',
          'next_attempt_at',
          'delivered_at',
          'failed_at',
        ],
        properties: {
          id: idSchema('dlv'),
          target: { enum: ['endpoint', 'callback_url'] },
          endpoint_id: { type: ['string', 'null'] },
          url: { type: 'string' },
          status: deliveryStatus,
          attempts: { type: 'integer', minimum: 0 },
          last_status_code: { type: ['integer', 'null'] },
          last_error: nullableText,
          next_attempt_at: nullableTimestamp,
          delivered_at: nullableTimestamp,
          failed_at: nullableTimestamp,
        },
      },
    },
  },
};

export const eventRedeliverySchema: JsonSchema = {
  type: 'object',
  required: ['event_id', 'status'],
  properties: { event_id: idSchema('evt'), status: { const: 'redelivering' } },
};

/** `GET /v1/account/webhook-secret`. */
export const accountWebhookSecretSchema: JsonSchema = {
  type: 'object',
  required: ['secret'],
  properties: { secret: { ...secret, description: 'Signs the deliveries to a message’s own `callback_url`.' } },
};
