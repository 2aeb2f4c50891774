import { CONCRETE_CHANNELS, MESSAGE_STATUSES, REQUESTED_CHANNELS } from '@switchboard/domain';
import { chatOpenApiPaths, chatOpenApiSchemas } from './chat/chat-openapi.paths';
import type { JsonSchema } from './json-schema';
import { jsonResponse, problemResponses as problems, withScope as authenticated } from './openapi-operation.parts';
import { upstreamsOpenApiPaths, upstreamsOpenApiSchemas } from './upstreams-openapi.paths';
import { batchOpenApiSchemas, withBatchOpenApiPaths } from './batch-openapi.paths';
import { voiceOpenApiPaths, voiceOpenApiSchemas } from './voice-openapi.paths';
import { webhooksOpenApiPaths, webhooksOpenApiSchemas } from './webhooks/webhooks-openapi.paths';
import { suppressionsOpenApiPaths, suppressionsOpenApiSchemas } from './suppressions/suppressions-openapi.paths';
import { messageRequestSchema } from './message-request.schema';
import { accountSettingsRequestSchema, accountSettingsSchema } from './account-settings.schema';
import {
  messageAcceptedSchema,
  messageEventsSchema,
  messageListSchema,
  messageSchema,
  messageTransitionSchema,
  problemSchema,
} from './resources.schema';

type Operation = JsonSchema;

/** Reusable problem responses, each naming the codes it can carry (docs/errors.md). */
const PROBLEMS: Record<string, string> = {
  '400': 'validation_failed, invalid_json or invalid_idempotency_key; `errors` names each field.',
  '401': 'unauthorized: missing, malformed, unknown or revoked API key (or a bad upstream signature).',
  '403': 'insufficient_scope.',
  '404': 'not_found: malformed, unknown or another account’s id.',
  '409': 'idempotency_key_in_use, with Retry-After: 1; template_already_exists.',
  '413': 'payload_too_large: the body exceeds 256 KiB.',
  '415': 'unsupported_media_type: the body is not application/json.',
  '422':
    'content_or_template_required, content_not_supported_on_channel, webhook_url_not_allowed, from_number_not_provisioned, no_sender_for_channel, idempotency_key_reused, outside_customer_service_window, template_not_found, template_not_approved or template_parameter_mismatch.',
  '429': 'rate_limited, with Retry-After.',
  '503': 'unavailable: Redis or the store cannot take the request; nothing was accepted.',
};


const rateLimitHeaders = {
  RateLimit: { $ref: '#/components/headers/RateLimit' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
  'X-Request-Id': { $ref: '#/components/headers/XRequestId' },
};

const json = (schemaName: string, description: string, headers: Record<string, JsonSchema> = rateLimitHeaders) => jsonResponse(schemaName, description, headers);

function queryParameter(name: string, schema: JsonSchema, description: string): JsonSchema {
  return { name, in: 'query', required: false, schema, description };
}

const messageIdParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'A `msg_` id.' };

const paths: Record<string, Record<string, Operation>> = {
  '/v1/account': {
    get: authenticated('', {
      operationId: 'getAccountSettings',
      summary: 'The account-wide sending defaults',
      responses: { '200': json('AccountSettings', 'The settings.'), ...problems('401', '404', '429', '503') },
    }),
    patch: authenticated('messages:write', {
      operationId: 'updateAccountSettings',
      summary: 'Change the account-wide sending defaults',
      description: '`fallback_timeout_seconds` applies to `auto` messages that set none (docs/routing.md#time-based-fallback); `quiet_hours` holds marketing messages (docs/routing.md#quiet-hours). Fields left out stay as they are.',
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/AccountSettingsRequest' } } } },
      responses: { '200': json('AccountSettings', 'The settings as stored.'), ...problems('400', '401', '403', '415', '429', '503') },
    }),
  },
  '/v1/messages': {
    post: authenticated('messages:write', {
      operationId: 'sendMessage',
      summary: 'Send a message',
      description: 'Accepts the message for dispatch. Nothing is written to the store on this path: the message is accepted once its job is in Redis.',
      parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }],
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/MessageRequest' } } } },
      responses: {
        '202': json('MessageAccepted', 'Accepted; `Location` names the message.', {
          ...rateLimitHeaders,
          Location: { schema: { type: 'string' }, description: '`/v1/messages/{id}`' },
          'Idempotent-Replayed': { schema: { const: 'true' }, description: 'Present when this is a replay of the first answer for the Idempotency-Key.' },
        }),
        ...problems('400', '401', '403', '409', '413', '415', '422', '429', '503'),
      },
    }),
    get: authenticated('messages:read', {
      operationId: 'listMessages',
      summary: 'List messages, newest first',
      parameters: [
        queryParameter('status', { enum: [...MESSAGE_STATUSES] }, 'Only messages in this status.'),
        queryParameter('channel', { enum: [...REQUESTED_CHANNELS] }, 'Only messages requested on this channel.'),
        queryParameter('recipient', { type: 'string' }, 'Only messages to this E.164 number.'),
        queryParameter('limit', { type: 'integer', minimum: 1, maximum: 100, default: 20 }, 'Page size.'),
        queryParameter('cursor', { type: 'string' }, 'The `next_cursor` of the previous page.'),
      ],
      responses: { '200': json('MessageList', 'A page of messages.'), ...problems('400', '401', '403', '429', '503') },
    }),
  },
  '/v1/messages/{id}': {
    get: authenticated('messages:read', {
      operationId: 'getMessage',
      summary: 'Message status and telemetry',
      description: 'A message is found from the moment it is accepted, even while it still waits in the queue.',
      parameters: [messageIdParameter],
      responses: { '200': json('Message', 'The message.'), ...problems('401', '403', '404', '429', '503') },
    }),
  },
  '/v1/messages/{id}/events': {
    get: authenticated('messages:read', {
      operationId: 'getMessageEvents',
      summary: 'Status history of a message, in order',
      parameters: [messageIdParameter],
      responses: { '200': json('MessageEvents', 'The transitions.'), ...problems('401', '403', '404', '429', '503') },
    }),
  },
  '/v1/providers/chat/webhook': {
    get: {
      operationId: 'chatWebhookHandshake',
      summary: 'Chat upstream verification handshake',
      parameters: [
        queryParameter('hub.mode', { const: 'subscribe' }, 'Must be `subscribe`.'),
        queryParameter('hub.verify_token', { type: 'string' }, 'Must equal CHAT_VERIFY_TOKEN.'),
        queryParameter('hub.challenge', { type: 'string' }, 'Echoed back.'),
      ],
      responses: { '200': { description: 'The challenge.', content: { 'text/plain': { schema: { type: 'string' } } } }, ...problems('403') },
    },
    post: {
      operationId: 'chatWebhook',
      summary: 'Chat upstream status and inbound webhook',
      description: 'Verified with `X-Hub-Signature-256` over the raw body, acknowledged at once and processed from a queue; a duplicate delivery changes nothing.',
      parameters: [{ name: 'X-Hub-Signature-256', in: 'header', required: true, schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' } }],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
      responses: { '200': { description: 'Received.' }, ...problems('400', '401', '413', '415', '503') },
    },
  },
  '/v1/providers/rcs/events': {
    post: {
      operationId: 'rcsEvents',
      summary: 'RBM Pub/Sub push of events and user messages',
      parameters: [{ name: 'X-Goog-Signature', in: 'header', required: true, schema: { type: 'string' } }],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['message'] } } } },
      responses: { '200': { description: 'Received.' }, ...problems('400', '401', '413', '415', '503') },
    },
  },
  '/healthz': { get: { operationId: 'health', summary: 'The process lives', responses: { '200': { description: 'Alive.' } } } },
  '/readyz': {
    get: {
      operationId: 'ready',
      summary: 'Redis and the store answer',
      responses: { '200': { description: 'Ready.' }, '503': { description: 'A dependency does not answer.' } },
    },
  },
  '/metrics': {
    get: {
      operationId: 'metrics',
      summary: 'Prometheus metrics',
      responses: { '200': { description: 'Text exposition format.', content: { 'text/plain': { schema: { type: 'string' } } } } },
    },
  },
  '/v1/openapi.json': {
    get: { operationId: 'openapi', summary: 'This document', responses: { '200': { description: 'OpenAPI 3.1.', content: { 'application/json': {} } } } },
  },
  '/docs': {
    get: { operationId: 'docs', summary: 'This document, rendered', responses: { '200': { description: 'HTML.', content: { 'text/html': {} } } } },
  },
};

/**
 * The OpenAPI 3.1 document of the gateway, built from the very schema objects that validate requests,
 * so the two cannot drift apart (docs/running.md#openapi).
 */
export function buildOpenApiDocument(options: { serverUrl?: string } = {}): JsonSchema {
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Switchboard API',
      version: '1.0.0',
      description: 'Unified messaging over chat, RCS and SMS. Errors are RFC 9457 problem documents; see docs/errors.md.',
    },
    servers: [{ url: options.serverUrl ?? '/' }],
    paths: withBatchOpenApiPaths({ ...paths, ...chatOpenApiPaths, ...webhooksOpenApiPaths, ...upstreamsOpenApiPaths, ...suppressionsOpenApiPaths, ...voiceOpenApiPaths }),
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: '`sk_live_…` or `sk_test_…` (sandbox).' } },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          schema: { type: 'string', format: 'uuid' },
          description: 'UUID v4. The same key with the same body replays the first answer; kept IDEMPOTENCY_TTL_SECONDS.',
        },
      },
      headers: {
        RateLimit: { schema: { type: 'string' }, description: '`"default";r=<remaining>;t=<seconds to reset>`' },
        RateLimitPolicy: { schema: { type: 'string' }, description: '`"default";q=<quota>;w=1`' },
        XRequestId: { schema: { type: 'string' }, description: 'Echoed when the request sent a short safe one; generated otherwise.' },
      },
      responses: Object.fromEntries(
        Object.entries(PROBLEMS).map(([status, description]) => [
          `Problem${status}`,
          { description, content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } },
        ]),
      ),
      schemas: {
        MessageRequest: messageRequestSchema,
        AccountSettingsRequest: accountSettingsRequestSchema,
        AccountSettings: accountSettingsSchema,
        MessageAccepted: messageAcceptedSchema,
        Message: messageSchema,
        MessageList: messageListSchema,
        MessageTransition: messageTransitionSchema,
        MessageEvents: messageEventsSchema,
        Problem: problemSchema,
        ...chatOpenApiSchemas,
        ...webhooksOpenApiSchemas,
        ...upstreamsOpenApiSchemas,
        ...suppressionsOpenApiSchemas,
        ...batchOpenApiSchemas,
        ...voiceOpenApiSchemas,
        Channel: { enum: [...CONCRETE_CHANNELS] },
      },
    },
  };
}
