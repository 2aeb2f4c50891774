import { isValidE164, UnprocessableError, ValidationError, type FieldError } from '@switchboard/domain';
import type { JsonSchema } from '../json-schema';
import { callbackUrlSchema, metadataSchema } from '../message-request.schema';
import { compileSchema } from '../validator';
import { webhookUrlRefusal, type WebhookTargetPolicy } from '../webhook-target.guard';

/** Bounds of `POST /v1/voice/calls` (docs/voice.md#placing-a-call). */
export const CALL_LIMITS = {
  ringTimeoutSeconds: { min: 5, max: 120, default: 30 },
  maxDurationSeconds: { min: 10, max: 14_400, default: 600 },
} as const;

export interface CallRequest {
  to: string;
  from: string;
  agent_id?: string;
  record?: boolean;
  callback_url?: string;
  ring_timeout_seconds?: number;
  max_duration_seconds?: number;
  metadata?: Record<string, string>;
  retry?: { attempts: number; delay_seconds: number; on: Array<'busy' | 'no-answer'> };
  machine_detection?: 'detect' | 'hangup';
}

export const callRequestSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['to', 'from'],
  properties: {
    to: { type: 'string', maxLength: 32, description: 'E.164 number to call.' },
    from: { type: 'string', maxLength: 32, description: 'E.164 number provisioned on the account with the voice channel.' },
    agent_id: { type: 'string', maxLength: 64 },
    record: { type: 'boolean', default: false },
    callback_url: callbackUrlSchema,
    ring_timeout_seconds: { type: 'integer', minimum: CALL_LIMITS.ringTimeoutSeconds.min, maximum: CALL_LIMITS.ringTimeoutSeconds.max },
    max_duration_seconds: { type: 'integer', minimum: CALL_LIMITS.maxDurationSeconds.min, maximum: CALL_LIMITS.maxDurationSeconds.max },
    metadata: metadataSchema,
    retry: {
      type: 'object',
      additionalProperties: false,
      required: ['attempts', 'delay_seconds', 'on'],
      properties: {
        attempts: { type: 'integer', minimum: 1, maximum: 5 },
        delay_seconds: { type: 'integer', minimum: 30, maximum: 3600 },
        on: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: ['busy', 'no-answer'] } },
      },
    },
    machine_detection: { enum: ['detect', 'hangup'] },
  },
};

/** Validates a call request: the schema (400), the numbers (400) and the callback target (422 webhook_url_not_allowed). */
export function createCallRequestValidator(opts: { webhookTargets: WebhookTargetPolicy }): (body: unknown) => CallRequest {
  const check = compileSchema(callRequestSchema);
  return (body) => {
    const errors: FieldError[] = [...check(body)];
    const request = body as CallRequest;
    if (errors.length === 0) {
      for (const field of ['to', 'from'] as const) {
        if (!isValidE164(request[field])) errors.push({ field: `/${field}`, message: 'must be a valid E.164 phone number' });
      }
      if (request.callback_url !== undefined && !URL.canParse(request.callback_url)) errors.push({ field: '/callback_url', message: 'must be a valid URL' });
    }
    if (errors.length > 0) throw new ValidationError(errors);
    if (request.callback_url !== undefined) {
      const refusal = webhookUrlRefusal(new URL(request.callback_url), opts.webhookTargets);
      if (refusal) throw new UnprocessableError('webhook_url_not_allowed', refusal, [{ field: '/callback_url', message: refusal }]);
    }
    return request;
  };
}
