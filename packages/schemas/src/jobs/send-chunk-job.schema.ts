import { idSchema, type JsonSchema } from '../json-schema';
import { sendMessageJobSchema } from './send-message-job.schema';

/**
 * The `send-chunk` job (`SendChunkJob` in `@switchboard/queues`): up to a batch's worth of accepted
 * messages that travel in one job (docs/messages.md#chunk-lifecycle). Each message is a `send-message`
 * payload, checked the same way.
 */
export const sendChunkJobSchema: JsonSchema = {
  type: 'object',
  required: ['chunk_id', 'batch_id', 'account_id', 'messages'],
  properties: {
    chunk_id: { type: 'string', minLength: 1 },
    batch_id: idSchema('bat'),
    account_id: { type: 'string', minLength: 1 },
    messages: { type: 'array', minItems: 1, maxItems: 1000, items: sendMessageJobSchema },
  },
};
