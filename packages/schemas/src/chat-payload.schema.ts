import { chatTypeSchemas } from './chat/chat-type.schemas';
import type { JsonSchema } from './json-schema';

/** Chat payload types (docs/chat.md#one-example-per-type). */
export const CHAT_PAYLOAD_TYPES = ['text', 'template', 'interactive', 'image', 'document', 'audio', 'location'] as const;
export type ChatPayloadType = (typeof CHAT_PAYLOAD_TYPES)[number];

/**
 * The schema of the object named after each chat payload type: the deep rules of docs/chat.md, shared by
 * `content` of `POST /v1/messages`, the body of `POST /v1/messages/chat` and the OpenAPI document.
 * The rules a schema cannot say are in `chat/chat-payload.checks.ts`.
 */
export const chatPayloadTypeSchemas: Readonly<Record<ChatPayloadType, JsonSchema>> = chatTypeSchemas;

/**
 * `{ type, <type>: {...} }`: exactly the type's own object beside `type`. One `if`/`then` per type
 * keeps ajv's errors pointing at the offending property instead of at a failed `oneOf`.
 */
export const chatPayloadSchema: JsonSchema = {
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string', enum: [...CHAT_PAYLOAD_TYPES] } },
  allOf: CHAT_PAYLOAD_TYPES.map((type) => ({
    if: { properties: { type: { const: type } } },
    then: {
      type: 'object',
      required: [type],
      properties: { type: true, [type]: chatPayloadTypeSchemas[type] },
      additionalProperties: false,
    },
  })),
};

/** `content: { text }`, which every channel can carry (docs/messages.md#channels). */
export const textContentSchema: JsonSchema = {
  type: 'object',
  required: ['text'],
  additionalProperties: false,
  properties: { text: { type: 'string', minLength: 1, maxLength: 4096 } },
};

/** `content` is a chat payload when it names a `type`, and `{ text }` otherwise. */
export const messageContentSchema: JsonSchema = {
  description: '`{ text }` for every channel, or a chat payload `{ type, <type>: {...} }`.',
  if: { type: 'object', required: ['type'] },
  then: chatPayloadSchema,
  else: textContentSchema,
};
