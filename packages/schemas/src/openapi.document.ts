import { MESSAGE_STATUSES, REQUESTED_CHANNELS, TRAFFIC_CLASSES } from '@switchboard/domain';
import { chatOpenApiPaths, chatOpenApiSchemas } from './chat/chat-openapi.paths';
import type { JsonSchema } from './json-schema';
import { finishPaths, generatorFriendly, OPENAPI_TAGS, problemExample } from './openapi-conventions';
import { webhookEventEnvelopeSchema, webhookEventsOpenApi } from './webhooks/webhook-events-openapi';
import { jsonResponse, problemResponses as problems, withScope as authenticated } from './openapi-operation.parts';
import { upstreamsOpenApiPaths, upstreamsOpenApiSchemas } from './upstreams-openapi.paths';
import { batchOpenApiSchemas, withBatchOpenApiPaths } from './batch-openapi.paths';
import { voiceOpenApiPaths, voiceOpenApiSchemas } from './voice-openapi.paths';
import { webhooksOpenApiPaths, webhooksOpenApiSchemas } from './webhooks/webhooks-openapi.paths';
import { suppressionsOpenApiPaths, suppressionsOpenApiSchemas } from './suppressions/suppressions-openapi.paths';
import { messageRequestSchema } from './message-request.schema';
import { accountSettingsRequestSchema, accountSettingsSchema } from './account-settings.schema';
import { messageAcceptedSchema, messageEventsSchema, messageListSchema, messageSchema, messageTransitionSchema, problemSchema } from './resources.schema';

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

const json = (schemaName: string, description: string, headers: Record<string, JsonSchema> = rateLimitHeaders) =>
  jsonResponse(schemaName, description, headers);

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
      description:
        '`fallback_timeout_seconds` applies to `auto` messages that set none (docs/routing.md#time-based-fallback); `quiet_hours` holds marketing messages (docs/routing.md#quiet-hours). Fields left out stay as they are.',
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
        queryParameter('traffic_class', { enum: [...TRAFFIC_CLASSES] }, 'Only messages of this lane.'),
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
      description: 'The Cloud API calls this once when the webhook is configured; the answer echoes `hub.challenge` (docs/api.md#upstream-callbacks).',
      parameters: [
        { ...queryParameter('hub.mode', { const: 'subscribe' }, 'Must be `subscribe`.'), required: true, example: 'subscribe' },
        { ...queryParameter('hub.verify_token', { type: 'string' }, 'Must equal CHAT_VERIFY_TOKEN.'), required: true, example: 'sandbox-verify-token' },
        { ...queryParameter('hub.challenge', { type: 'string' }, 'Echoed back.'), required: true, example: '1158201444' },
      ],
      responses: {
        '200': {
          description: 'The challenge, as sent.',
          content: { 'text/plain': { schema: { type: 'string' }, examples: { default: { value: '1158201444' } } } },
        },
        ...problems('403'),
      },
    },
    post: {
      operationId: 'chatWebhook',
      summary: 'Chat upstream status and inbound webhook',
      description:
        'Verified with `X-Hub-Signature-256` over the raw body, acknowledged at once and processed from a queue; a duplicate delivery changes nothing.',
      parameters: [
        {
          name: 'X-Hub-Signature-256',
          in: 'header',
          required: true,
          schema: { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
          description: '`sha256=` + hex HMAC-SHA256 of the raw body keyed with CHAT_APP_SECRET.',
        },
      ],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: 'A Cloud API webhook notification.' } } } },
      responses: { '200': json('CallbackReceived', 'Received; processed from a queue.', {}), ...problems('400', '401', '413', '415', '503') },
    },
  },
  '/v1/providers/rcs/events': {
    post: {
      operationId: 'rcsEvents',
      summary: 'RBM Pub/Sub push of events and user messages',
      description: 'Verified with `X-Goog-Signature` over `message.data`, acknowledged at once and processed from a queue; a duplicate push changes nothing.',
      parameters: [
        {
          name: 'X-Goog-Signature',
          in: 'header',
          required: true,
          schema: { type: 'string' },
          description: 'Base64 HMAC-SHA512 of `message.data` keyed with RBM_CLIENT_TOKEN.',
        },
      ],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { type: 'object', required: ['message'], description: 'A Pub/Sub push envelope.' } } },
      },
      responses: { '200': json('CallbackReceived', 'Received; processed from a queue.', {}), ...problems('400', '401', '413', '415', '503') },
    },
  },
  '/healthz': {
    get: {
      operationId: 'health',
      summary: 'The process lives',
      description: 'Answers as long as the process runs, whatever its dependencies say: a liveness probe.',
      responses: { '200': json('Health', 'Alive.', {}) },
    },
  },
  '/readyz': {
    get: {
      operationId: 'ready',
      summary: 'Redis and the store answer',
      description: 'A readiness probe: 503 while a dependency does not answer in time or while the instance shuts down.',
      responses: { '200': json('Readiness', 'Ready.', {}), ...problems('503') },
    },
  },
  '/metrics': {
    get: {
      operationId: 'metrics',
      summary: 'Prometheus metrics',
      description: 'The Prometheus text exposition format (docs/running.md#health-readiness-and-metrics).',
      responses: {
        '200': {
          description: 'Text exposition format.',
          content: {
            'text/plain': {
              schema: { type: 'string' },
              examples: { default: { value: '# TYPE http_requests_total counter\nhttp_requests_total{route="/v1/messages",status="202"} 1\n' } },
            },
          },
        },
      },
    },
  },
  '/v1/openapi.json': {
    get: {
      operationId: 'openapi',
      summary: 'This document',
      description: 'OpenAPI 3.1; `servers` names PUBLIC_BASE_URL, or the host the request was sent to (docs/configuration.md).',
      responses: {
        '200': {
          description: 'OpenAPI 3.1.',
          content: { 'application/json': { schema: { type: 'object' }, examples: { default: { value: { openapi: '3.1.0' } } } } },
        },
      },
    },
  },
};

/** The operational answers (docs/running.md#health-readiness-and-metrics) and upstream acknowledgements. */
const operationsSchemas: Record<string, JsonSchema> = {
  Health: { type: 'object', required: ['status'], properties: { status: { enum: ['ok'] } } },
  Readiness: { type: 'object', required: ['status'], properties: { status: { enum: ['ready'] } } },
  CallbackReceived: { type: 'object', required: ['received'], properties: { received: { enum: [true] } } },
};

/**
 * The parts the document is assembled from: each area's paths file adds ONE line here
 * (docs/api.md#the-openapi-document); the route/document test then holds it to the gateway's routes.
 */
const OPENAPI_PARTS: Array<{ paths: Record<string, Record<string, Operation>>; schemas: Record<string, JsonSchema> }> = [
  { paths, schemas: operationsSchemas },
  { paths: chatOpenApiPaths, schemas: chatOpenApiSchemas },
  { paths: webhooksOpenApiPaths, schemas: webhooksOpenApiSchemas },
  { paths: upstreamsOpenApiPaths, schemas: upstreamsOpenApiSchemas },
  { paths: suppressionsOpenApiPaths, schemas: suppressionsOpenApiSchemas },
  { paths: {}, schemas: batchOpenApiSchemas },
  { paths: voiceOpenApiPaths, schemas: voiceOpenApiSchemas },
];

/** Where the document says the API is when neither PUBLIC_BASE_URL nor a request names it. */
export const DEFAULT_SERVER_URL = 'http://localhost:8080';

/**
 * The OpenAPI 3.1 document of the gateway, built from the very schema objects that validate requests,
 * so the two cannot drift apart (docs/api.md#the-openapi-document). `serverUrl` is the absolute base URL
 * clients call: PUBLIC_BASE_URL or the host a request for the document was sent to.
 */
export function buildOpenApiDocument(options: { serverUrl?: string } = {}): JsonSchema {
  const schemas: Record<string, JsonSchema> = {
    MessageRequest: messageRequestSchema,
    AccountSettingsRequest: accountSettingsRequestSchema,
    AccountSettings: accountSettingsSchema,
    MessageAccepted: messageAcceptedSchema,
    Message: messageSchema,
    MessageList: messageListSchema,
    MessageTransition: messageTransitionSchema,
    MessageEvents: messageEventsSchema,
    Problem: problemSchema,
    WebhookEventEnvelope: webhookEventEnvelopeSchema,
    ...(Object.assign({}, ...OPENAPI_PARTS.map((part) => part.schemas)) as Record<string, JsonSchema>),
  };
  // The batch part adds DELETE to /v1/messages/{id}, which another part owns: it merges per method, not per path.
  const allPaths = finishPaths(
    withBatchOpenApiPaths(Object.assign({}, ...OPENAPI_PARTS.map((part) => part.paths)) as Record<string, Record<string, Operation>>),
    schemas,
  );
  const usedTags = new Set(Object.values(allPaths).flatMap((operations) => Object.values(operations).flatMap((op) => op.tags as string[])));
  usedTags.add('Webhook events');
  return generatorFriendly({
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Switchboard API',
      version: '1.0.0',
      description:
        'Unified messaging over chat, RCS and SMS, with signed webhooks. Authenticate with `Authorization: Bearer sk_test_…` (sandbox) or `sk_live_…`; the scope each operation needs is in its description and in `x-required-scopes`. Errors are RFC 9457 problem documents (docs/errors.md).',
    },
    servers: [{ url: options.serverUrl ?? DEFAULT_SERVER_URL, description: 'This gateway' }],
    tags: OPENAPI_TAGS.filter(({ name }) => usedTags.has(name)).map(({ name, description }) => ({ name, description })),
    paths: allPaths,
    webhooks: webhookEventsOpenApi,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'API key',
          description: '`sk_live_…` or `sk_test_…` (sandbox). Scopes are per key (docs/authentication.md#scopes).',
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          schema: { type: 'string', format: 'uuid' },
          description: 'UUID v4. The same key with the same body replays the first answer; kept 24 hours, as Stripe keeps its keys.',
          example: '3f0c2a8e-6f1b-4c1d-9f55-2a9d6c1e7b10',
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
          {
            description,
            content: {
              'application/problem+json': {
                schema: { $ref: '#/components/schemas/Problem' },
                examples: { default: { value: problemExample(status, description) } },
              },
            },
          },
        ]),
      ),
      schemas,
    },
  });
}
