import { CONCRETE_CHANNELS } from '@switchboard/domain';
import type { JsonSchema } from '../json-schema';

/*
 * What the upstream parsers of `@switchboard/providers` produce (`UpstreamReceipt`, `UpstreamInbound`,
 * `UpstreamTemplateUpdate` in `@switchboard/domain`). The checks stop at types and required fields:
 * an upstream's odd but usable value must not turn a receipt into a permanently failed job.
 */

const text: JsonSchema = { type: 'string' };
const nonEmpty: JsonSchema = { type: 'string', minLength: 1 };
const timestamp: JsonSchema = { type: 'string', format: 'date-time' };
const channel: JsonSchema = { enum: [...CONCRETE_CHANNELS] };

export const RECEIPT_STATUSES = ['sent', 'delivered', 'read', 'failed', 'undelivered'] as const;

export const upstreamReceiptSchema: JsonSchema = {
  type: 'object',
  required: ['channel', 'upstreamMessageId', 'status', 'carrierStatusCode', 'occurredAt'],
  properties: {
    channel,
    upstreamMessageId: nonEmpty,
    clientRef: text,
    attemptRef: { type: 'integer' },
    partId: nonEmpty,
    parts: { type: 'integer', minimum: 1 },
    recipient: text,
    status: { enum: [...RECEIPT_STATUSES] },
    carrierStatusCode: text,
    errorCode: text,
    errorMessage: text,
    occurredAt: timestamp,
  },
};

export const upstreamInboundSchema: JsonSchema = {
  type: 'object',
  required: ['channel', 'upstreamId', 'from', 'to', 'type', 'receivedAt'],
  properties: {
    channel,
    upstreamId: nonEmpty,
    from: nonEmpty,
    to: nonEmpty,
    type: nonEmpty,
    text,
    reply: { type: 'object', required: ['id', 'title'], properties: { id: text, title: text } },
    location: {
      type: 'object',
      required: ['latitude', 'longitude'],
      properties: { latitude: { type: 'number' }, longitude: { type: 'number' }, name: text, address: text },
    },
    media: { type: 'object', properties: { id: text, mime_type: text, caption: text } },
    contextUpstreamId: text,
    receivedAt: timestamp,
  },
};

export const upstreamTemplateUpdateSchema: JsonSchema = {
  type: 'object',
  required: ['upstreamTemplateId', 'name', 'language', 'status'],
  properties: { upstreamTemplateId: nonEmpty, name: nonEmpty, language: nonEmpty, status: { enum: ['approved', 'rejected'] }, reason: text },
};

/** The `provider-callback` job: produced by the gateway's upstream webhooks and the dispatcher's SMPP session. */
export const providerCallbackJobSchema: JsonSchema = {
  type: 'object',
  required: ['source', 'received_at', 'receipts', 'inbound', 'template_updates'],
  properties: {
    source: channel,
    received_at: timestamp,
    receipts: { type: 'array', items: upstreamReceiptSchema },
    inbound: { type: 'array', items: upstreamInboundSchema },
    template_updates: { type: 'array', items: upstreamTemplateUpdateSchema },
  },
};
