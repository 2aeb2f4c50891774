import type { JsonSchema } from '../json-schema';
import { chatMessageRequestSchema } from './chat-message-request';
import { TEMPLATE_CATEGORIES, templateCreateSchema } from './template-create.schema';
import {
  idParameter,
  jsonResponse as json,
  pageOf as list,
  pageParameters,
  problemResponses as problems,
  schemaRef as ref,
  withScope as secured,
} from '../openapi-operation.parts';

const location = (path: string) => ({ Location: { schema: { type: 'string' }, description: path } });

const timestamp: JsonSchema = { type: 'string', format: 'date-time' };

/** `GET /v1/templates/{id}`. */
export const templateSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'name', 'language', 'category', 'components', 'status', 'rejection_reason', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string', pattern: '^tpl_' },
    name: { type: 'string' },
    language: { type: 'string' },
    category: { enum: [...TEMPLATE_CATEGORIES] },
    components: { type: 'array', items: { type: 'object' } },
    status: { enum: ['pending', 'approved', 'rejected'], description: '`pending` until the upstream reviews it.' },
    rejection_reason: { type: ['string', 'null'] },
    created_at: timestamp,
    updated_at: timestamp,
  },
};

/** `GET /v1/inbound/{id}`: the `message.inbound` event data (docs/webhooks.md#envelope-and-headers), plus location and media. */
export const inboundSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'channel', 'from', 'to', 'type', 'received_at'],
  properties: {
    id: { type: 'string', pattern: '^inb_' },
    channel: { enum: ['chat', 'rcs', 'sms'] },
    from: { type: 'string', description: 'The customer, E.164.' },
    to: { type: 'string', description: 'Your number, E.164.' },
    type: { type: 'string', description: '`text`, `reply` (a button or list row picked), `location`, or a media type.' },
    text: { type: 'string' },
    reply: { type: 'object', properties: { id: { type: 'string' }, title: { type: 'string' } } },
    context: { type: 'object', properties: { message_id: { type: 'string' } }, description: 'The message the customer answered.' },
    location: { type: 'object' },
    media: { type: 'object' },
    received_at: timestamp,
  },
};

/** The chat channel's schemas, merged into the OpenAPI document's components. */
export const chatOpenApiSchemas: Record<string, JsonSchema> = {
  ChatMessageRequest: chatMessageRequestSchema,
  TemplateCreateRequest: templateCreateSchema,
  Template: templateSchema,
  TemplateList: list('Template'),
  Inbound: inboundSchema,
  InboundList: list('Inbound'),
};

/** The chat channel's operations (docs/chat.md; issue 3), merged into the OpenAPI document's paths. */
export const chatOpenApiPaths: Record<string, Record<string, JsonSchema>> = {
  '/v1/messages/chat': {
    post: secured('messages:write', {
      operationId: 'sendChatMessage',
      summary: 'Send a chat message by type',
      description: 'Chat payloads within the Cloud API limits. Free-form types need an open 24 h customer service window; templates do not.',
      parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }],
      requestBody: { required: true, content: { 'application/json': { schema: ref('ChatMessageRequest') } } },
      responses: {
        '202': json('MessageAccepted', 'Accepted; `Location` names the message.', location('`/v1/messages/{id}`')),
        ...problems('400', '401', '403', '409', '413', '415', '422', '429', '503'),
      },
    }),
  },
  '/v1/templates': {
    post: secured('templates:write', {
      operationId: 'createTemplate',
      summary: 'Create a template and submit it for review',
      requestBody: { required: true, content: { 'application/json': { schema: ref('TemplateCreateRequest') } } },
      responses: {
        '201': json('Template', 'Created with status `pending`.', location('`/v1/templates/{id}`')),
        ...problems('400', '401', '403', '409', '413', '415', '429', '503'),
      },
    }),
    get: secured('templates:write', {
      operationId: 'listTemplates',
      summary: 'List templates, newest first',
      parameters: pageParameters,
      responses: { '200': json('TemplateList', 'A page of templates.'), ...problems('400', '401', '403', '429', '503') },
    }),
  },
  '/v1/templates/{id}': {
    get: secured('templates:write', {
      operationId: 'getTemplate',
      summary: 'A template and its review status',
      parameters: [idParameter('tpl')],
      responses: { '200': json('Template', 'The template.'), ...problems('401', '403', '404', '429', '503') },
    }),
    delete: secured('templates:write', {
      operationId: 'deleteTemplate',
      summary: 'Delete a template',
      parameters: [idParameter('tpl')],
      responses: { '204': { description: 'Deleted.' }, ...problems('401', '403', '404', '429', '503') },
    }),
  },
  '/v1/inbound': {
    get: secured('messages:read', {
      operationId: 'listInbound',
      summary: 'Customer replies, newest first',
      parameters: pageParameters,
      responses: { '200': json('InboundList', 'A page of replies.'), ...problems('400', '401', '403', '429', '503') },
    }),
  },
  '/v1/inbound/{id}': {
    get: secured('messages:read', {
      operationId: 'getInbound',
      summary: 'One customer reply',
      parameters: [idParameter('inb')],
      responses: { '200': json('Inbound', 'The reply.'), ...problems('401', '403', '404', '429', '503') },
    }),
  },
};
