import { ValidationError } from '@switchboard/domain';
import type { JsonSchema } from './json-schema';
import { MESSAGE_LIMITS } from './message-request.schema';
import { compileSchema } from './validator';

/** `PATCH /v1/account` (docs/routing.md#time-based-fallback): settings that apply to every message of the account. */
export interface AccountSettingsRequest {
  /** null returns to the service default. */
  fallback_timeout_seconds?: number | null;
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
  },
};

export const accountSettingsSchema: JsonSchema = {
  type: 'object',
  required: ['fallback_timeout_seconds'],
  properties: { fallback_timeout_seconds: { type: ['integer', 'null'] } },
};

export function createAccountSettingsRequestValidator(): (body: unknown) => AccountSettingsRequest {
  const schemaErrors = compileSchema(accountSettingsRequestSchema);
  return (body) => {
    const errors = schemaErrors(body);
    if (errors.length > 0) throw new ValidationError(errors);
    return body as AccountSettingsRequest;
  };
}
