import type { JsonSchema } from '../json-schema';
import { suppressionListQuerySchema, suppressionRequestSchema, suppressionSchema } from './suppression.schema';
import { jsonResponse as json, pageOf, pageParameters, problemResponses as problems, schemaRef as ref } from '../openapi-operation.parts';

const filters = Object.entries(suppressionListQuerySchema.properties as Record<string, JsonSchema>).map(([name, schema]) => ({
  name,
  in: 'query',
  required: false,
  schema,
  description: schema.description,
}));

export const suppressionsOpenApiSchemas: Record<string, JsonSchema> = {
  SuppressionRequest: suppressionRequestSchema,
  Suppression: suppressionSchema,
  SuppressionList: pageOf('Suppression'),
};

/**
 * The account's sending rules (docs/routing.md): `/v1/suppressions` (reads need `messages:read`, writes
 * `messages:write`) and the quiet hours of `PATCH /v1/account` (`messages:write`).
 */
export const suppressionsOpenApiPaths: Record<string, Record<string, JsonSchema>> = {
  '/v1/suppressions': {
    get: {
      security: [{ bearerAuth: ['messages:read'] }],
      operationId: 'listSuppressions',
      summary: 'The account’s suppression list, newest first',
      parameters: [...filters, ...pageParameters],
      responses: { '200': json('SuppressionList', 'A page of entries.'), ...problems('400', '401', '403', '429', '503') },
    },
    post: {
      security: [{ bearerAuth: ['messages:write'] }],
      operationId: 'createSuppression',
      summary: 'Stop sending to a recipient on a channel',
      description: 'Adding a recipient already on the list answers 200 with the existing entry.',
      requestBody: { required: true, content: { 'application/json': { schema: ref('SuppressionRequest') } } },
      responses: {
        '201': json('Suppression', 'Added; `Location` names the entry.'),
        '200': json('Suppression', 'Already on the list.'),
        ...problems('400', '401', '403', '413', '415', '429', '503'),
      },
    },
  },
  '/v1/suppressions/{id}': {
    delete: {
      security: [{ bearerAuth: ['messages:write'] }],
      operationId: 'deleteSuppression',
      summary: 'Allow sending to the recipient on that channel again',
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'A `sup_` id.' }],
      responses: { '204': { description: 'Removed.' }, ...problems('401', '403', '404', '429', '503') },
    },
  },
};
