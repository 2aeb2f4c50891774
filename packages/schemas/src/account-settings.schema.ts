import { ValidationError, type QuietHours } from '@switchboard/domain';
import type { JsonSchema } from './json-schema';
import { MESSAGE_LIMITS, quietHoursSchema } from './message-request.schema';
import { compileSchema } from './validator';

/**
 * `PATCH /v1/account`: settings that apply to every message of the account, the fallback timeout
 * (docs/routing.md#time-based-fallback) and quiet hours (docs/routing.md#quiet-hours). Fields left out stay as they are.
 */
export interface AccountSettingsRequest {
  /** null returns to the service default. */
  fallback_timeout_seconds?: number | null;
  /** null removes them. */
  quiet_hours?: QuietHours | null;
}

export const accountSettingsRequestSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    fallback_timeout_seconds: {
      type: ['integer', 'null'],
      minimum: MESSAGE_LIMITS.fallbackTimeoutSeconds.min,
      maximum: MESSAGE_LIMITS.fallbackTimeoutSeconds.max,
      description: "Default for `auto` messages that set none; null returns to the service's (60 s).",
    },
    quiet_hours: { anyOf: [quietHoursSchema, { type: 'null' }], description: 'The account’s quiet hours for marketing messages; null removes them.' },
  },
};

export const accountSettingsSchema: JsonSchema = {
  type: 'object',
  required: ['fallback_timeout_seconds', 'quiet_hours'],
  properties: {
    fallback_timeout_seconds: { type: ['integer', 'null'] },
    quiet_hours: { anyOf: [quietHoursSchema, { type: 'null' }] },
  },
};

export function createAccountSettingsRequestValidator(): (body: unknown) => AccountSettingsRequest {
  const schemaErrors = compileSchema(accountSettingsRequestSchema);
  return (body) => {
    const errors = schemaErrors(body);
    if (errors.length > 0) throw new ValidationError(errors);
    return body as AccountSettingsRequest;
  };
}
