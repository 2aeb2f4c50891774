import { CONCRETE_CHANNELS, isValidE164, ValidationError } from '@switchboard/domain';
import { e164Schema, idSchema, type JsonSchema } from '../json-schema';
import { compileSchema } from '../validator';

/** The body of `POST /v1/suppressions` (docs/routing.md#opt-out). */
export interface SuppressionRequest {
  recipient: string;
  channel: (typeof CONCRETE_CHANNELS)[number];
}

export const suppressionRequestSchema: JsonSchema = {
  type: 'object',
  required: ['recipient', 'channel'],
  additionalProperties: false,
  properties: {
    recipient: e164Schema('The customer, E.164.'),
    channel: { type: 'string', enum: [...CONCRETE_CHANNELS], description: 'The channel the customer must not be sent to.' },
  },
};

export const suppressionSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'recipient', 'channel', 'source', 'created_at'],
  properties: {
    id: idSchema('sup'),
    recipient: e164Schema('The customer, E.164.'),
    channel: { type: 'string', enum: [...CONCRETE_CHANNELS] },
    source: { type: 'string', enum: ['inbound', 'api'], description: '`inbound`: the customer wrote STOP; `api`: added with POST /v1/suppressions.' },
    created_at: { type: 'string', format: 'date-time' },
  },
};

/** The filters of `GET /v1/suppressions` beside `limit` and `cursor`. */
export const suppressionListQuerySchema: JsonSchema = {
  type: 'object',
  properties: {
    channel: { type: 'string', enum: [...CONCRETE_CHANNELS], description: 'Only entries of this channel.' },
    recipient: { type: 'string', pattern: '^\\+[1-9][0-9]{6,14}$', description: 'Only entries of this number (E.164; encode `+` as `%2B`).' },
  },
};

export interface SuppressionListQuery {
  channel?: string;
  recipient?: string;
}

/** Builds the `POST /v1/suppressions` body check (400 with JSON Pointers). Compile once at start-up. */
export function createSuppressionRequestValidator(): (body: unknown) => SuppressionRequest {
  const errors = compileSchema(suppressionRequestSchema);
  return (body) => {
    const found = errors(body);
    const recipient = (body as { recipient?: unknown } | null)?.recipient;
    // The same number rule as a send's recipient, so that every number a send accepts can be suppressed.
    if (!found.some((e) => e.field === '/recipient') && !isValidE164(recipient)) found.push({ field: '/recipient', message: 'is not a valid phone number' });
    if (found.length > 0) throw new ValidationError(found);
    return body as SuppressionRequest;
  };
}
