import { ValidationError, type QuietHours } from '@switchboard/domain';
import type { JsonSchema } from './json-schema';
import { quietHoursSchema } from './message-request.schema';
import { compileSchema } from './validator';

/** The quiet-hours part of `PATCH /v1/account` (docs/routing.md#quiet-hours). */
export interface AccountQuietHoursUpdate {
  quiet_hours: QuietHours | null;
}

export const accountQuietHoursUpdateSchema: JsonSchema = {
  type: 'object',
  required: ['quiet_hours'],
  properties: {
    quiet_hours: { anyOf: [quietHoursSchema, { type: 'null' }], description: 'The account’s quiet hours for marketing messages; null removes them.' },
  },
};

/** 400 with JSON Pointers for a malformed body. Compile once at start-up. */
export function createAccountQuietHoursUpdateValidator(): (body: unknown) => AccountQuietHoursUpdate {
  const errors = compileSchema(accountQuietHoursUpdateSchema);
  return (body) => {
    const found = errors(body);
    if (found.length > 0) throw new ValidationError(found);
    return body as AccountQuietHoursUpdate;
  };
}
