import type { JsonSchema } from './json-schema';
import { problemResponses, withScope } from './openapi-operation.parts';

/** `GET /admin/queues` (docs/observability.md#bull-board): Bull Board, a page for operators, not an API. */
export const adminOpenApiPaths: Record<string, Record<string, JsonSchema>> = {
  '/admin/queues': {
    get: withScope('admin', {
      operationId: 'queueBoard',
      summary: 'Bull Board: every queue and its jobs (admin)',
      description:
        'An HTML page (and the JSON API it calls under `/admin/queues/api/`) for operators. Send the admin key as Bearer, or log in with HTTP Basic: any user name, the admin key as password; a request without credentials gets 401 with `WWW-Authenticate: Basic`.',
      responses: { '200': { description: 'The board.', content: { 'text/html': { schema: { type: 'string' } } } }, ...problemResponses('401', '403', '429') },
    }),
  },
};
