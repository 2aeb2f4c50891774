import { EVENT_TYPES, type EventType } from '@switchboard/webhooks';
import { EVENT_RESOURCE_ID_PATTERN, idSchema, type JsonSchema } from '../json-schema';

/*
 * The OpenAPI `webhooks` section (docs/webhooks.md#envelope-and-headers): what Switchboard sends to a
 * registered endpoint, one entry per event type, each with the Standard Webhooks headers.
 */

/** `data` of each event type: the resource as `GET` returns it, plus `sequence` on message events. */
function dataSchemaOf(type: EventType): JsonSchema {
  if (type === 'message.inbound') return { $ref: '#/components/schemas/Inbound' };
  if (type.startsWith('message.')) {
    return {
      allOf: [{ $ref: '#/components/schemas/Message' }],
      type: 'object',
      required: ['sequence'],
      properties: { sequence: { type: 'integer', minimum: 1, description: 'Orders the events of one message; older ones may arrive later.' } },
    };
  }
  return {
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'string', pattern: EVENT_RESOURCE_ID_PATTERN, description: 'The call the event is about.' } },
    additionalProperties: true,
    description: 'The call as `GET /v1/calls/{id}` returns it (docs/voice.md).',
  };
}

/** The envelope every delivery carries. */
export const webhookEventEnvelopeSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'type', 'created_at', 'data'],
  properties: {
    id: { ...idSchema('evt'), description: 'The event id, equal to the `webhook-id` header; the same on every retry.' },
    type: { enum: [...EVENT_TYPES] },
    created_at: { type: 'string', format: 'date-time' },
    data: { type: 'object', description: 'The resource the event is about.' },
  },
};

const headers: JsonSchema[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    schema: idSchema('evt'),
    description: 'The event id: deduplicate on it.',
    example: 'evt_01JD3Q8M6D2G8Y1X4TQH2V7K9B',
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    schema: { type: 'string', pattern: '^[0-9]+$' },
    description: 'Unix seconds of this attempt; reject ones far from now.',
    example: '1795435200',
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
    description:
      '`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}` with the endpoint secret; two space-separated signatures for 24 h after a rotation.',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
];

function webhookOf(type: EventType): JsonSchema {
  return {
    post: {
      operationId: `on${type.replace(/(^|[._])([a-z])/g, (_m, _s, c: string) => c.toUpperCase())}`,
      summary: `\`${type}\``,
      description: `Sent to every enabled endpoint subscribed to \`${type}\` or \`*\`, and to a message's \`callback_url\`. Verify the signature before trusting the body (docs/webhooks.md#verifying-deliveries).`,
      tags: ['Webhook events'],
      security: [],
      parameters: headers,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              allOf: [{ $ref: '#/components/schemas/WebhookEventEnvelope' }],
              type: 'object',
              properties: { type: { enum: [type] }, data: dataSchemaOf(type) },
            },
          },
        },
      },
      responses: {
        '200': { description: 'Any 2xx acknowledges the delivery.' },
        '410': { description: 'Gone: Switchboard disables the endpoint.' },
        '500': {
          description: 'Any other answer, or none within the timeout, is retried on the schedule (docs/webhooks.md#delivery-retries-and-dead-letters).',
        },
      },
    },
  };
}

export const webhookEventsOpenApi: Record<string, JsonSchema> = Object.fromEntries(EVENT_TYPES.map((type) => [type, webhookOf(type)]));
