import { MESSAGE_STATUSES } from '@switchboard/domain';
import { batchRequestSchema } from './batch-request.schema';
import type { JsonSchema } from './json-schema';
import { idParameter, jsonResponse, problemResponses, schemaRef, withScope } from './openapi-operation.parts';

/** The 202 of `POST /v1/messages/batch` (docs/messages.md#batch-sends). */
export const batchAcceptedSchema: JsonSchema = {
  type: 'object',
  required: ['batch_id', 'created_at', 'accepted', 'rejected', 'results'],
  properties: {
    batch_id: { type: 'string', pattern: '^bat_[0-9A-HJKMNP-TV-Z]{26}$' },
    created_at: { type: 'string', format: 'date-time' },
    accepted: { type: 'integer', minimum: 0 },
    rejected: { type: 'integer', minimum: 0 },
    results: {
      type: 'array',
      description:
        'One per item, in order: the single send’s 202 body, or a problem document whose field pointers name `/messages/{index}/…` or a shared default.',
      items: { oneOf: [schemaRef('MessageAccepted'), schemaRef('Problem')] },
    },
  },
};

/** `GET /v1/batches/{id}`: counts per status of the accepted messages. */
export const batchSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'created_at', 'total', 'accepted', 'rejected', 'counts'],
  properties: {
    id: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
    total: { type: 'integer', description: 'Items in the request.' },
    accepted: { type: 'integer' },
    rejected: { type: 'integer' },
    counts: {
      type: 'object',
      description: 'Accepted messages per status; one the dispatcher has not stored yet counts as `scheduled` until its time, then `queued`.',
      required: [...MESSAGE_STATUSES],
      properties: Object.fromEntries(MESSAGE_STATUSES.map((s) => [s, { type: 'integer', minimum: 0 }])),
    },
  },
};

export const batchOpenApiSchemas: Record<string, JsonSchema> = {
  BatchRequest: batchRequestSchema,
  BatchAccepted: batchAcceptedSchema,
  Batch: batchSchema,
};

const operations: Record<string, Record<string, JsonSchema>> = {
  '/v1/messages/batch': {
    post: withScope('messages:write', {
      operationId: 'sendBatch',
      summary: 'Send up to 1,000 messages in one request',
      description:
        'Shared defaults plus one entry per recipient (docs/messages.md#batch-sends). Valid items are accepted even when others are refused. `Idempotency-Key` covers the whole request.',
      parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }],
      requestBody: { required: true, content: { 'application/json': { schema: schemaRef('BatchRequest') } } },
      responses: {
        '202': jsonResponse('BatchAccepted', 'One result per item; `Location` names the batch.'),
        ...problemResponses('400', '401', '403', '409', '413', '415', '422', '429', '503'),
      },
    }),
  },
  '/v1/batches/{id}': {
    get: withScope('messages:read', {
      operationId: 'getBatch',
      summary: 'Counts per status of a batch’s messages',
      parameters: [idParameter('bat')],
      responses: { '200': jsonResponse('Batch', 'The batch.'), ...problemResponses('401', '403', '404', '429', '503') },
    }),
  },
  '/v1/messages/{id}': {
    delete: withScope('messages:write', {
      operationId: 'cancelMessage',
      summary: 'Cancel a scheduled message',
      description:
        'Only a `scheduled` message (send_at or quiet hours) can be canceled: it ends `canceled` with a `message.canceled` event (docs/messages.md#canceling-a-scheduled-message). Any other state is 409 `message_not_cancelable`.',
      parameters: [idParameter('msg')],
      responses: { '200': jsonResponse('Message', 'The canceled message.'), ...problemResponses('400', '401', '403', '404', '409', '429', '503') },
    }),
  },
};

/** The document's paths with the batch and cancel operations added (a path both name keeps its other methods). */
export function withBatchOpenApiPaths<P extends Record<string, Record<string, JsonSchema>>>(paths: P): P {
  const merged: Record<string, Record<string, JsonSchema>> = { ...paths };
  for (const [path, methods] of Object.entries(operations)) merged[path] = { ...merged[path], ...methods };
  return merged as P;
}
