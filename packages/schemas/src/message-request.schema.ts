import { CONCRETE_CHANNELS, REQUESTED_CHANNELS, type ConcreteChannel, type MessageContent, type RequestedChannel, type TemplateReference } from '@switchboard/domain';
import { messageContentSchema } from './chat-payload.schema';
import { HTTP_URL_PATTERN, e164Schema, type JsonSchema } from './json-schema';
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
}

export const metadataSchema: JsonSchema = {
  type: 'object',
  description: 'Echoed on the message and its events.',
  maxProperties: MESSAGE_LIMITS.metadataMaxKeys,
  propertyNames: { minLength: 1, maxLength: MESSAGE_LIMITS.metadataKeyMaxLength },
  additionalProperties: { type: 'string', maxLength: MESSAGE_LIMITS.metadataValueMaxLength },
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
  },
};
