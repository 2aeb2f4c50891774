import {
  CONCRETE_CHANNELS,
  QUIET_HOURS_TIME_PATTERN,
  REQUESTED_CHANNELS,
  TRAFFIC_CLASSES,
  type ConcreteChannel,
  type MessageContent,
  type QuietHours,
  type RequestedChannel,
  type TemplateReference,
  type TrafficClass,
} from '@switchboard/domain';
import { messageContentSchema } from './chat-payload.schema';
import { HTTP_URL_PATTERN, e164Schema, type JsonSchema } from './json-schema';
import { sendAtSchema } from './send-at.schema';
import { templateReferenceSchema } from './template-reference.schema';

/** Limits of the message request (docs/api.md); exported so that docs and tests quote the same numbers. */
export const MESSAGE_LIMITS = {
  callbackUrlMaxLength: 2048,
  metadataMaxKeys: 16,
  metadataKeyMaxLength: 40,
  metadataValueMaxLength: 500,
  ttlSeconds: { min: 1, max: 172_800 },
  fallbackTimeoutSeconds: { min: 5, max: 3_600 },
} as const;

/** The body of `POST /v1/messages` once it passed `validateMessageRequest`. */
export interface MessageRequest {
  channel: RequestedChannel;
  recipient: string;
  content?: MessageContent;
  template?: TemplateReference;
  callback_url?: string;
  fallback?: ConcreteChannel[];
  ttl_seconds?: number;
  fallback_timeout_seconds?: number;
  metadata?: Record<string, string>;
  from?: string;
  /** Marketing messages wait out quiet hours (docs/routing.md#quiet-hours). @defaultValue `transactional` */
  category?: MessageCategory;
  /** Applies to any category when given here; otherwise the account's apply to marketing only. */
  quiet_hours?: QuietHours;
  /** ISO 8601; the message is `scheduled` until then (docs/messages.md#scheduled-sends). */
  send_at?: string;
  /** The lane (docs/messages.md#traffic-lanes). @defaultValue `transactional` */
  traffic_class?: TrafficClass;
}

export const MESSAGE_CATEGORIES = ['transactional', 'marketing'] as const;
export type MessageCategory = (typeof MESSAGE_CATEGORIES)[number];

export const quietHoursSchema: JsonSchema = {
  type: 'object',
  required: ['start', 'end'],
  additionalProperties: false,
  description: 'Local times ("HH:MM") in the recipient’s time zone between which the message waits; may cross midnight.',
  properties: {
    start: { type: 'string', pattern: QUIET_HOURS_TIME_PATTERN },
    end: { type: 'string', pattern: QUIET_HOURS_TIME_PATTERN },
  },
};

export const metadataSchema: JsonSchema = {
  type: 'object',
  description: 'Echoed on the message and its events.',
  maxProperties: MESSAGE_LIMITS.metadataMaxKeys,
  propertyNames: { minLength: 1, maxLength: MESSAGE_LIMITS.metadataKeyMaxLength },
  additionalProperties: { type: 'string', maxLength: MESSAGE_LIMITS.metadataValueMaxLength },
};

export const trafficClassSchema: JsonSchema = {
  type: 'string',
  enum: [...TRAFFIC_CLASSES],
  description: 'The lane: `transactional` (the default here) has capacity a `bulk` backlog never takes; accounts take turns within each lane.',
};

export const callbackUrlSchema: JsonSchema = {
  type: 'string',
  format: 'uri',
  pattern: HTTP_URL_PATTERN,
  maxLength: MESSAGE_LIMITS.callbackUrlMaxLength,
  description: 'Receives this message’s events, signed with the account’s callback secret.',
};

export const messageRequestSchema: JsonSchema = {
  type: 'object',
  required: ['channel', 'recipient'],
  additionalProperties: false,
  properties: {
    channel: { type: 'string', enum: [...REQUESTED_CHANNELS] },
    recipient: e164Schema('The recipient, E.164.'),
    content: messageContentSchema,
    template: templateReferenceSchema,
    callback_url: callbackUrlSchema,
    fallback: {
      type: 'array',
      description: 'Channel order for `auto`; default `["chat","rcs","sms"]`.',
      minItems: 1,
      maxItems: CONCRETE_CHANNELS.length,
      uniqueItems: true,
      items: { type: 'string', enum: [...CONCRETE_CHANNELS] },
    },
    ttl_seconds: { type: 'integer', minimum: MESSAGE_LIMITS.ttlSeconds.min, maximum: MESSAGE_LIMITS.ttlSeconds.max },
    fallback_timeout_seconds: {
      type: 'integer',
      minimum: MESSAGE_LIMITS.fallbackTimeoutSeconds.min,
      maximum: MESSAGE_LIMITS.fallbackTimeoutSeconds.max,
      description: '`auto`: move on when no `delivered` arrives in this time; default 60.',
    },
    metadata: metadataSchema,
    from: e164Schema('A number provisioned on the account for the channel; default the first one provisioned.'),
    category: { type: 'string', enum: [...MESSAGE_CATEGORIES], description: '`marketing` waits out quiet hours; default `transactional`.' },
    quiet_hours: quietHoursSchema,
    send_at: sendAtSchema,
    traffic_class: trafficClassSchema,
  },
};
