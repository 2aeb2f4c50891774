import type { ApiError } from '@switchboard/domain';
import type { JsonSchema } from './json-schema';
import { messageRequestSchema, type MessageRequest } from './message-request.schema';

/** Limits of `POST /v1/messages/batch` (docs/messages.md#batch-sends). */
export const BATCH_LIMITS = { maxMessages: 1_000 } as const;

/** Fields an item may set; everything else comes from the shared defaults. */
export const BATCH_ITEM_FIELDS = ['recipient', 'content', 'template', 'metadata'] as const;

/** Fields the batch may set once for every item. */
export const BATCH_DEFAULT_FIELDS = [
  'channel',
  'from',
  'fallback',
  'callback_url',
  'ttl_seconds',
  'fallback_timeout_seconds',
  'send_at',
  'metadata',
  'category',
  'quiet_hours',
  'content',
  'template',
] as const;

const messageProperties = messageRequestSchema.properties as Record<string, JsonSchema>;

/**
 * The envelope: shared defaults, checked like the same fields of a single send, and the list of items.
 * Items are checked one by one (docs/messages.md#batch-sends), so that one bad item refuses only itself.
 */
export const batchRequestSchema: JsonSchema = {
  type: 'object',
  required: ['messages'],
  additionalProperties: false,
  properties: {
    ...Object.fromEntries(BATCH_DEFAULT_FIELDS.map((field) => [field, messageProperties[field]])),
    traffic_class: {
      type: 'string',
      enum: ['bulk'],
      description: 'Every batch item travels in the `bulk` lane; a batch may not ask for `transactional` (send those one by one).',
    },
    messages: {
      type: 'array',
      minItems: 1,
      maxItems: BATCH_LIMITS.maxMessages,
      description: 'One entry per recipient: `recipient`, `content` or `template` (merged over the shared one), `metadata` (merged over the shared one).',
      items: { type: 'object' },
    },
  },
};

/** One item's outcome of validation: the single-send request it stands for, or its refusal. */
export type BatchItemCheck = { request: MessageRequest } | { error: ApiError };

export interface BatchRequest {
  items: BatchItemCheck[];
}
