import { CONCRETE_CHANNELS, MESSAGE_STATUSES, REQUESTED_CHANNELS, TRAFFIC_CLASSES } from '@switchboard/domain';
import { metadataSchema } from './message-request.schema';
import type { JsonSchema } from './json-schema';

const timestamp: JsonSchema = { type: 'string', format: 'date-time' };
const nullableTimestamp: JsonSchema = { type: ['string', 'null'], format: 'date-time' };
const messageId: JsonSchema = { type: 'string', pattern: '^msg_[0-9A-HJKMNP-TV-Z]{26}$', examples: ['msg_01JD3Q4W6T9ZK1H8X2C5V7B3NM'] };

/** The 202 answer to `POST /v1/messages`: exactly the fields of docs/messages.md#sending-a-message. */
export const messageAcceptedSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'status', 'channel', 'recipient', 'created_at', 'estimated_delivery', 'cost_units'],
  additionalProperties: false,
  properties: {
    id: messageId,
    status: {
      enum: ['queued', 'scheduled'],
      description: '`scheduled` when send_at (docs/messages.md#scheduled-sends) or quiet hours (docs/routing.md#quiet-hours) hold the message back.',
    },
    channel: { enum: [...REQUESTED_CHANNELS] },
    recipient: { type: 'string' },
    created_at: timestamp,
    estimated_delivery: { type: 'string', examples: ['within 5 seconds'] },
    cost_units: { type: 'integer', minimum: 0 },
  },
};

/** `GET /v1/messages/{id}` (docs/messages.md#reading-messages). */
export const messageSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'status', 'channel', 'recipient', 'created_at', 'updated_at', 'cost_units', 'attempts', 'error'],
  properties: {
    id: messageId,
    status: { enum: [...MESSAGE_STATUSES] },
    channel: { enum: [...REQUESTED_CHANNELS] },
    channel_used: { enum: [...CONCRETE_CHANNELS, null] },
    recipient: { type: 'string' },
    carrier_status_code: { type: ['string', 'null'] },
    sent_at: nullableTimestamp,
    delivered_at: nullableTimestamp,
    read_at: nullableTimestamp,
    created_at: timestamp,
    updated_at: timestamp,
    cost_units: { type: 'integer' },
    traffic_class: { enum: [...TRAFFIC_CLASSES], description: 'The lane the message travels in (docs/messages.md#traffic-lanes).' },
    metadata: metadataSchema,
    error: {
      type: ['object', 'null'],
      properties: { code: { type: 'string' }, message: { type: 'string' } },
    },
    attempts: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          channel: { enum: [...CONCRETE_CHANNELS] },
          status: { type: 'string' },
          error_code: { type: ['string', 'null'] },
          at: timestamp,
          parts: { type: 'integer', minimum: 1, description: 'SMS only: how many parts (submit_sm) carried the text.' },
          parts_delivered: { type: 'integer', minimum: 0, description: 'SMS only: how many of those parts were reported delivered.' },
        },
      },
    },
  },
};

export const messageListSchema: JsonSchema = {
  type: 'object',
  required: ['data', 'next_cursor'],
  properties: {
    data: { type: 'array', items: { $ref: '#/components/schemas/Message' }, description: 'Newest first.' },
    next_cursor: { type: ['string', 'null'], description: 'Pass as `cursor` for the next page; null on the last one.' },
  },
};

export const messageTransitionSchema: JsonSchema = {
  type: 'object',
  required: ['sequence', 'status', 'at'],
  properties: {
    sequence: { type: 'integer', minimum: 1 },
    status: { type: 'string' },
    channel: { type: ['string', 'null'] },
    carrier_status_code: { type: ['string', 'null'] },
    error_code: { type: ['string', 'null'] },
    at: timestamp,
  },
};

export const messageEventsSchema: JsonSchema = {
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'array', items: { $ref: '#/components/schemas/MessageTransition' } } },
};

/** RFC 9457 problem document with the extensions of docs/errors.md. */
export const problemSchema: JsonSchema = {
  type: 'object',
  required: ['type', 'title', 'status', 'code', 'request_id'],
  properties: {
    type: { type: 'string', examples: ['/errors/validation_failed'], description: 'See docs/errors.md.' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string', description: 'Stable snake_case code.' },
    request_id: { type: 'string' },
    error_id: { type: 'string', description: 'Only on 500; the same id is in the logs.' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['field', 'message'],
        properties: {
          field: {
            type: 'string',
            description: 'JSON Pointer into the body (`/template/components/0/parameters/1/text`), or `header:<name>` / `query:<name>`.',
          },
          message: { type: 'string' },
        },
      },
    },
  },
};
