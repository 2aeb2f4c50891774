import { idSchema, type JsonSchema } from '../json-schema';
import { sendMessageJobSchema } from './send-message-job.schema';

/**
 * `fallback-check` and `expire` on the message-timers queue (docs/routing.md#time-based-fallback,
 * docs/routing.md#ttl). A fallback check carries the send job, so that it can send on the next channel.
 */
export const messageTimerJobSchema: JsonSchema = {
  type: 'object',
  required: ['kind', 'message_id'],
  properties: {
    kind: { enum: ['fallback-check', 'expire'] },
    message_id: idSchema('msg'),
    attempt_id: idSchema('att'),
    timeout_seconds: { type: 'integer', minimum: 1 },
    send: sendMessageJobSchema,
    ttl_seconds: { type: 'integer', minimum: 1 },
  },
  if: { properties: { kind: { const: 'fallback-check' } } },
  then: { required: ['attempt_id', 'timeout_seconds', 'send'] },
  else: { required: ['ttl_seconds'] },
};
