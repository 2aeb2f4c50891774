import type { JsonSchema } from './json-schema';
import { jsonResponse, problemResponses, withScope } from './openapi-operation.parts';

/** `GET /v1/upstreams` (docs/api.md#get-v1upstreams): each configured upstream and its shared circuit breaker. */
export const upstreamSchema: JsonSchema = {
  type: 'object',
  required: ['name', 'channel', 'mode', 'priority', 'weight', 'state', 'recent_calls', 'error_rate', 'opened_at'],
  properties: {
    name: { type: 'string', description: 'The upstream’s configured name; keys its breaker.' },
    channel: { enum: ['chat', 'rcs', 'sms'] },
    mode: { enum: ['test', 'live'], description: '`test`: used by test keys (the carrier simulator); `live`: by live keys.' },
    priority: { type: 'integer', description: 'Lower numbers are tried first.' },
    weight: { type: 'integer', description: 'Share of traffic among upstreams of the same priority.' },
    state: { enum: ['closed', 'half_open', 'open'] },
    recent_calls: { type: 'integer', description: 'Calls in the rolling window.' },
    error_rate: { type: 'number', minimum: 0, maximum: 1, description: 'Share of failed or slow calls in the window.' },
    opened_at: { type: ['string', 'null'], format: 'date-time', description: 'When the breaker last opened, while it is not closed.' },
  },
};

export const upstreamsOpenApiSchemas: Record<string, JsonSchema> = {
  Upstream: upstreamSchema,
  UpstreamList: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Upstream' } } } },
};

export const upstreamsOpenApiPaths: Record<string, Record<string, JsonSchema>> = {
  '/v1/upstreams': {
    get: withScope('admin', {
      operationId: 'listUpstreams',
      summary: 'Upstreams and their circuit breakers (admin)',
      description: 'Every upstream the dispatchers were configured with, as they published it to Redis, with the breaker state all of them share.',
      responses: { '200': jsonResponse('UpstreamList', 'The upstreams.'), ...problemResponses('401', '403', '429', '503') },
    }),
  },
};
