import { isValidE164, UnprocessableError, ValidationError, type FieldError, type MessageContent, type TemplateReference } from '@switchboard/domain';
import type { TrafficClass } from '@switchboard/domain';
import { CHAT_PAYLOAD_TYPES, type ChatPayloadType } from '../chat-payload.schema';
import { e164Schema, type JsonSchema } from '../json-schema';
import { callbackUrlSchema, metadataSchema, trafficClassSchema, type MessageRequest } from '../message-request.schema';
import { compileSchema } from '../validator';
import { webhookUrlRefusal, type WebhookTargetPolicy } from '../webhook-target.guard';
import { chatPayloadRuleErrors, pointAtFirstExcessItem, type ChatPayloadRules } from './chat-payload.checks';
import { chatTypeSchemas } from './chat-type.schemas';

/** The body of `POST /v1/messages/chat` (docs/chat.md). */
export interface ChatMessageRequest {
  to: string;
  type: ChatPayloadType;
  callback_url?: string;
  metadata?: Record<string, string>;
  traffic_class?: TrafficClass;
  [typedObject: string]: unknown;
}

export const chatMessageRequestSchema: JsonSchema = {
  type: 'object',
  required: ['to', 'type'],
  additionalProperties: false,
  properties: {
    to: e164Schema('The recipient, E.164.'),
    type: { type: 'string', enum: [...CHAT_PAYLOAD_TYPES] },
    ...chatTypeSchemas,
    callback_url: callbackUrlSchema,
    metadata: metadataSchema,
    traffic_class: trafficClassSchema,
  },
  allOf: CHAT_PAYLOAD_TYPES.map((type) => ({ if: { properties: { type: { const: type } }, required: ['type'] }, then: { required: [type] } })),
};

export interface ChatMessageRequestRules extends ChatPayloadRules {
  webhookTargets: WebhookTargetPolicy;
}

type Body = Record<string, unknown>;

function bodyRuleErrors(body: Body, rules: ChatPayloadRules, schemaErrors: FieldError[]): FieldError[] {
  const errors: FieldError[] = [];
  if (typeof body.to === 'string' && !schemaErrors.some((e) => e.field === '/to') && !isValidE164(body.to)) {
    errors.push({ field: '/to', message: 'is not a valid phone number' });
  }
  for (const other of CHAT_PAYLOAD_TYPES) {
    if (other !== body.type && body[other] !== undefined) errors.push({ field: `/${other}`, message: `is not allowed with type "${String(body.type)}"` });
  }
  if (typeof body.callback_url === 'string' && !schemaErrors.some((e) => e.field === '/callback_url') && !URL.canParse(body.callback_url)) {
    errors.push({ field: '/callback_url', message: 'must be a valid URL' });
  }
  // A rule broken only because of a schema error already reported (the 11th row of an 11th section) is not news.
  const covered = (field: string) => schemaErrors.some((e) => field === e.field || field.startsWith(`${e.field}/`));
  errors.push(...chatPayloadRuleErrors(body, '', rules).filter((e) => !covered(e.field)));
  return errors;
}

/**
 * Builds the `POST /v1/messages/chat` body check: schema, then the rules a schema cannot say (400 with
 * JSON Pointers), then the callback URL policy (422 `webhook_url_not_allowed`). Compile once at start-up.
 */
export function createChatMessageRequestValidator(rules: ChatMessageRequestRules): (body: unknown) => ChatMessageRequest {
  const schemaErrors = compileSchema(chatMessageRequestSchema);
  return (body) => {
    const errors = pointAtFirstExcessItem(schemaErrors(body));
    if (body !== null && typeof body === 'object' && !Array.isArray(body)) errors.push(...bodyRuleErrors(body as Body, rules, errors));
    if (errors.length > 0) throw new ValidationError(errors);
    const request = body as ChatMessageRequest;
    if (request.callback_url !== undefined) {
      const refusal = webhookUrlRefusal(new URL(request.callback_url), rules.webhookTargets);
      if (refusal) throw new UnprocessableError('webhook_url_not_allowed', refusal, [{ field: '/callback_url', message: refusal }]);
    }
    return request;
  };
}

/**
 * The same message as a `POST /v1/messages` request with `channel: "chat"`, so both routes share one
 * acceptance path and one job shape: a template travels as `template`, every other type as `content`.
 */
export function chatRequestToMessageRequest(request: ChatMessageRequest): MessageRequest {
  const { to, type, callback_url, metadata } = request;
  const message: MessageRequest = { channel: 'chat', recipient: to };
  if (type === 'template') message.template = request.template as TemplateReference;
  else message.content = { type, [type]: request[type] } as MessageContent;
  if (callback_url !== undefined) message.callback_url = callback_url;
  if (metadata !== undefined) message.metadata = metadata;
  if (request.traffic_class !== undefined) message.traffic_class = request.traffic_class;
  return message;
}
