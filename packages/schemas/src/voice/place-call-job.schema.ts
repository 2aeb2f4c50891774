import { idSchema, type JsonSchema } from '../json-schema';
import { compileSchema } from '../validator';

/** `place-call` (packages/queues' VOICE_CALLS_QUEUE): the call to place. */
export const placeCallJobSchema: JsonSchema = {
  type: 'object',
  required: ['call_id'],
  properties: { call_id: idSchema('call') },
};

/** `null` for a usable payload, else a line naming the offending fields. */
export function createPlaceCallJobCheck(): (data: unknown) => string | null {
  const check = compileSchema(placeCallJobSchema);
  return (data) => {
    const errors = check(data);
    return errors.length === 0 ? null : `invalid place-call job: ${errors.map((e) => `${e.field || '(payload)'} ${e.message}`).join('; ')}`;
  };
}
