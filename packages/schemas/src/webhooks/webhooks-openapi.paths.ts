import type { JsonSchema } from '../json-schema';
import { eventListQuerySchema } from './event-list.query';
import { webhookEndpointRequestSchema } from './webhook-endpoint.request';
import {
  accountWebhookSecretSchema,
  eventDetailSchema,
  eventRedeliverySchema,
  eventSchema,
  webhookAttemptSchema,
  webhookEndpointCreatedSchema,
  webhookEndpointSchema,
  webhookSecretRotationSchema,
} from './webhook-resources.schema';
import {
  idParameter,
  jsonResponse as json,
  pageOf as list,
  pageParameters,
  problemResponses as problems,
  schemaRef as ref,
  withScope as needs,
} from '../openapi-operation.parts';

/** Writes need `webhooks:write`; reads, redelivery and the account secret take any key of the account. */
const anyKey = (operation: JsonSchema): JsonSchema => needs('', operation);

/** The query parameters come from the schema that checks them. */
const eventFilters = Object.entries(eventListQuerySchema.properties as Record<string, JsonSchema>).map(([name, schema]) => ({
  name,
  in: 'query',
  required: false,
  schema,
  description: schema.description,
}));

/** Schemas of the webhook, event and account operations, merged into the document's components. */
export const webhooksOpenApiSchemas: Record<string, JsonSchema> = {
  WebhookEndpointRequest: webhookEndpointRequestSchema,
  WebhookEndpoint: webhookEndpointSchema,
  WebhookEndpointCreated: webhookEndpointCreatedSchema,
  WebhookEndpointList: list('WebhookEndpoint'),
  WebhookSecretRotation: webhookSecretRotationSchema,
  WebhookAttempt: webhookAttemptSchema,
  WebhookAttemptList: list('WebhookAttempt'),
  Event: eventSchema,
  EventList: list('Event'),
  EventDetail: eventDetailSchema,
  EventRedelivery: eventRedeliverySchema,
  AccountWebhookSecret: accountWebhookSecretSchema,
};

/** `/v1/webhooks`, `/v1/events` and `/v1/account` (docs/webhooks.md), merged into the document's paths. */
export const webhooksOpenApiPaths: Record<string, Record<string, JsonSchema>> = {
  '/v1/webhooks': {
    post: needs('webhooks:write', {
      operationId: 'createWebhookEndpoint',
      summary: 'Register a webhook endpoint',
      description: 'The answer is the only one that shows the endpoint’s signing secret.',
      requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookEndpointRequest') } } },
      responses: {
        '201': json('WebhookEndpointCreated', 'Registered; `Location` names the endpoint.', {
          Location: { schema: { type: 'string' }, description: '`/v1/webhooks/{id}`' },
        }),
        ...problems('400', '401', '403', '413', '415', '422', '429', '503'),
      },
    }),
    get: anyKey({
      operationId: 'listWebhookEndpoints',
      summary: 'List webhook endpoints, newest first',
      parameters: pageParameters,
      responses: { '200': json('WebhookEndpointList', 'A page of endpoints, without secrets.'), ...problems('400', '401', '429', '503') },
    }),
  },
  '/v1/webhooks/{id}': {
    get: anyKey({
      operationId: 'getWebhookEndpoint',
      summary: 'A webhook endpoint, without its secret',
      parameters: [idParameter('whk')],
      responses: { '200': json('WebhookEndpoint', 'The endpoint.'), ...problems('401', '404', '429', '503') },
    }),
    delete: needs('webhooks:write', {
      operationId: 'deleteWebhookEndpoint',
      summary: 'Delete a webhook endpoint',
      description: 'Its pending deliveries fail; nothing more is sent to it.',
      parameters: [idParameter('whk')],
      responses: { '204': { description: 'Deleted.' }, ...problems('401', '403', '404', '429', '503') },
    }),
  },
  '/v1/webhooks/{id}/rotate-secret': {
    post: needs('webhooks:write', {
      operationId: 'rotateWebhookSecret',
      summary: 'Give an endpoint a new signing secret',
      description: 'The old secret keeps signing beside the new one until `previous_secret_expires_at` (24 h).',
      parameters: [idParameter('whk')],
      responses: { '200': json('WebhookSecretRotation', 'The new secret.'), ...problems('401', '403', '404', '429', '503') },
    }),
  },
  '/v1/webhooks/{id}/deliveries': {
    get: anyKey({
      operationId: 'listWebhookAttempts',
      summary: 'Every delivery attempt to an endpoint, newest first',
      parameters: [idParameter('whk'), ...pageParameters],
      responses: { '200': json('WebhookAttemptList', 'A page of attempts.'), ...problems('400', '401', '404', '429', '503') },
    }),
  },
  '/v1/events': {
    get: anyKey({
      operationId: 'listEvents',
      summary: 'The account’s events, newest first, with where their deliveries stand',
      parameters: [...eventFilters, ...pageParameters],
      responses: { '200': json('EventList', 'A page of events.'), ...problems('400', '401', '429', '503') },
    }),
  },
  '/v1/events/{id}': {
    get: anyKey({
      operationId: 'getEvent',
      summary: 'An event and each of its deliveries',
      parameters: [idParameter('evt')],
      responses: { '200': json('EventDetail', 'The event.'), ...problems('401', '404', '429', '503') },
    }),
  },
  '/v1/events/{id}/redeliver': {
    post: anyKey({
      operationId: 'redeliverEvent',
      summary: 'Send an event again to every target',
      description: 'A new generation of each delivery; a retry of an older one still queued does nothing.',
      parameters: [idParameter('evt')],
      responses: { '202': json('EventRedelivery', 'Redelivery queued.'), ...problems('401', '404', '429', '503') },
    }),
  },
  '/v1/account/webhook-secret': {
    get: anyKey({
      operationId: 'getAccountWebhookSecret',
      summary: 'The secret that signs deliveries to a message’s `callback_url`',
      responses: { '200': json('AccountWebhookSecret', 'The secret.'), ...problems('401', '404', '429', '503') },
    }),
  },
};
