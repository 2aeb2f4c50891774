import { UnprocessableError, ValidationError, type FieldError } from '@switchboard/domain';
import { ALL_EVENTS, checkWebhookUrl, EVENT_TYPES } from '@switchboard/webhooks';
import { HTTP_URL_PATTERN, type JsonSchema } from '../json-schema';
import { compileSchema } from '../validator';
import { webhookUrlRefusal, type WebhookTargetPolicy } from '../webhook-target.guard';

export const WEBHOOK_ENDPOINT_LIMITS = { urlMaxLength: 2048, descriptionMaxLength: 256 } as const;

/** The body of `POST /v1/webhooks` (docs/webhooks.md). */
export interface WebhookEndpointRequest {
  url: string;
  events: string[];
  description?: string;
}

export const webhookEndpointRequestSchema: JsonSchema = {
  type: 'object',
  required: ['url', 'events'],
  additionalProperties: false,
  properties: {
    url: {
      type: 'string',
      format: 'uri',
      pattern: HTTP_URL_PATTERN,
      maxLength: WEBHOOK_ENDPOINT_LIMITS.urlMaxLength,
      description: 'Receives the events, signed with the endpoint’s secret. Private and metadata addresses are refused (422).',
    },
    events: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: { type: 'string', enum: [...EVENT_TYPES, ALL_EVENTS] },
      description: 'Event types to receive, or `["*"]` for all of them.',
    },
    description: { type: 'string', maxLength: WEBHOOK_ENDPOINT_LIMITS.descriptionMaxLength },
  },
};

/** A URL that is not one at all is a 400; a well-formed URL the target guard refuses is a 422. */
function isMalformed(url: string): boolean {
  const verdict = checkWebhookUrl(url, { allowHttp: true, allowPrivateNetworks: true, allowedHosts: [] });
  return !verdict.allowed && !verdict.reason.startsWith('address_refused');
}

function urlRuleErrors(body: unknown, schemaErrors: FieldError[]): FieldError[] {
  const url = body !== null && typeof body === 'object' ? (body as { url?: unknown }).url : undefined;
  if (typeof url !== 'string' || schemaErrors.some((e) => e.field === '/url') || !isMalformed(url)) return [];
  return [{ field: '/url', message: 'must be an absolute http(s) URL with a host and without credentials' }];
}

/**
 * Builds the `POST /v1/webhooks` body check: the schema and the URL's shape answer 400 with JSON
 * Pointers, the target policy answers 422 `webhook_url_not_allowed`. Compile once at start-up.
 */
export function createWebhookEndpointRequestValidator(policy: WebhookTargetPolicy): (body: unknown) => WebhookEndpointRequest {
  const schemaErrors = compileSchema(webhookEndpointRequestSchema);
  return (body) => {
    const errors = schemaErrors(body);
    errors.push(...urlRuleErrors(body, errors));
    if (errors.length > 0) throw new ValidationError(errors);
    const request = body as WebhookEndpointRequest;
    const refusal = webhookUrlRefusal(new URL(request.url), policy);
    if (refusal) throw new UnprocessableError('webhook_url_not_allowed', refusal, [{ field: '/url', message: refusal }]);
    return request;
  };
}
