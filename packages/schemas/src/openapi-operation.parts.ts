import type { JsonSchema } from './json-schema';

/** The parts every OpenAPI operation of the document is built from, so that each paths file says only what is its own. */

export const schemaRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** The shared problem+json responses (`components.responses.Problem<status>`) for these statuses. */
export const problemResponses = (...statuses: string[]): Record<string, JsonSchema> =>
  Object.fromEntries(statuses.map((status) => [status, { $ref: `#/components/responses/Problem${status}` }]));

export const jsonResponse = (schemaName: string, description: string, headers: Record<string, JsonSchema> = {}): JsonSchema => ({
  description,
  headers,
  content: { 'application/json': { schema: schemaRef(schemaName) } },
});

/**
 * Bearer authentication needing `scope`; an empty scope means any key of the account. A bearer scheme
 * declares no scopes in OpenAPI, so the scope goes in `x-required-scopes` (docs/api.md#scopes-in-the-document).
 */
export const withScope = <Operation extends JsonSchema>(scope: string, operation: Operation): Operation => ({
  security: [{ bearerAuth: [] }],
  'x-required-scopes': scope ? [scope] : [],
  ...operation,
});

export const idParameter = (prefix: string): JsonSchema => ({
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description: `A \`${prefix}_\` id.`,
});

/** `limit` and `cursor` of every collection (docs/conventions.md#pagination). */
export const pageParameters: JsonSchema[] = [
  { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 }, description: 'Page size.' },
  { name: 'cursor', in: 'query', required: false, schema: { type: 'string' }, description: 'The `next_cursor` of the previous page.' },
];

/** `{ data, next_cursor }` of `item`s, newest first. */
export const pageOf = (item: string): JsonSchema => ({
  type: 'object',
  required: ['data', 'next_cursor'],
  properties: { data: { type: 'array', items: schemaRef(item), description: 'Newest first.' }, next_cursor: { type: ['string', 'null'] } },
});
