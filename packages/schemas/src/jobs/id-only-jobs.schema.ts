import { idSchema, type JsonSchema } from '../json-schema';

/*
 * Jobs that carry ids only: the row they name is the truth, read fresh by the processor.
 */

/** `submit-template`: the template to send to the chat upstream of the key's mode. */
export const submitTemplateJobSchema: JsonSchema = {
  type: 'object',
  required: ['template_id', 'account_id', 'mode'],
  properties: { template_id: idSchema('tpl'), account_id: { type: 'string', minLength: 1 }, mode: { enum: ['live', 'test'] } },
};

/** `fan-out-event`: the event whose deliveries are to be planned. */
export const fanOutEventJobSchema: JsonSchema = {
  type: 'object',
  required: ['event_id'],
  properties: { event_id: idSchema('evt') },
};

/** `deliver-webhook`: one delivery at one generation; an older generation than the row's is stale. */
export const deliverWebhookJobSchema: JsonSchema = {
  type: 'object',
  required: ['delivery_id', 'generation'],
  properties: { delivery_id: idSchema('dlv'), generation: { type: 'integer', minimum: 0 }, attempts_made: { type: 'integer', minimum: 0 } },
};
