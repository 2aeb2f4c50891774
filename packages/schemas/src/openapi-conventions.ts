import type { JsonSchema } from './json-schema';
import { synthesizeExample } from './openapi-example.synth';
import { REQUEST_EXAMPLES } from './openapi-request.examples';

/*
 * What every operation of the document gets without its paths file saying it (docs/api.md#the-openapi-document):
 * a tag from its path, `security: []` when it takes no key, its scope spelled out, and examples.
 * A new `*-openapi.paths.ts` file therefore only registers its paths and schemas.
 */

/** The document's tags, in the order the reference shows them; the first prefix that matches a path wins. */
export const OPENAPI_TAGS: Array<{ name: string; description: string; prefixes: string[] }> = [
  { name: 'Messages', description: 'Send messages on any channel and follow their status (docs/messages.md).', prefixes: ['/v1/messages', '/v1/batches'] },
  {
    name: 'Chat',
    description: 'Typed chat payloads, templates and the replies customers send (docs/chat.md).',
    prefixes: ['/v1/messages/chat', '/v1/templates', '/v1/inbound'],
  },
  { name: 'Voice', description: 'Calls and voice agents (docs/voice.md).', prefixes: ['/v1/voice', '/v1/calls', '/v1/agents'] },
  { name: 'Suppressions', description: 'Customers who must not be sent to on a channel (docs/messages.md).', prefixes: ['/v1/suppressions'] },
  { name: 'Account', description: 'Account-wide sending defaults and the callback secret.', prefixes: ['/v1/account'] },
  { name: 'Webhooks', description: 'Endpoints that receive signed events, and their delivery attempts (docs/webhooks.md).', prefixes: ['/v1/webhooks'] },
  { name: 'Events', description: 'Every event of the account and where its deliveries stand (docs/webhooks.md).', prefixes: ['/v1/events'] },
  { name: 'Upstreams', description: 'Carriers and their circuit breakers (admin).', prefixes: ['/v1/upstreams'] },
  {
    name: 'Provider callbacks',
    description: 'What the upstream carriers call; each verified with the upstream’s own signature, no API key.',
    prefixes: ['/v1/providers'],
  },
  {
    name: 'Operations',
    description: 'Health, readiness, metrics and this document; no API key.',
    prefixes: ['/healthz', '/readyz', '/metrics', '/v1/openapi.json'],
  },
  {
    name: 'Webhook events',
    description: 'What Switchboard sends to your endpoints, signed per Standard Webhooks (docs/webhooks.md#envelope-and-headers).',
    prefixes: [],
  },
];

/**
 * The tag of a path, by its longest matching prefix (`/v1/messages/chat` is Chat, `/v1/messages/{id}` Messages);
 * a path no tag claims is named after its first segment, so a new route is never untagged.
 */
export function tagOf(path: string): string {
  const claims = OPENAPI_TAGS.flatMap((t) => t.prefixes.filter((p) => path === p || path.startsWith(`${p}/`)).map((prefix) => ({ tag: t.name, prefix })));
  const tag = claims.sort((a, b) => b.prefix.length - a.prefix.length)[0];
  if (tag) return tag.tag;
  const segment = path.split('/').find((s) => s && s !== 'v1') ?? 'other';
  return segment.charAt(0).toUpperCase() + segment.slice(1);
}

type Rule = { property: string; value: unknown; then: Record<string, unknown> };

/** `{ if: { properties: { P: { const: v } }, required?: [P] }, then: T }`, read as (P, v, T); null for any other shape. */
function discriminatedRule(rule: unknown): Rule | null {
  if (!rule || typeof rule !== 'object') return null;
  const { if: condition, then, ...rest } = rule as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || !condition || typeof condition !== 'object' || !then || typeof then !== 'object') return null;
  const { properties, required, ...others } = condition as Record<string, unknown>;
  if (Object.keys(others).length > 0 || !properties || typeof properties !== 'object') return null;
  const names = Object.keys(properties);
  if (names.length !== 1) return null;
  const test = (properties as Record<string, Record<string, unknown>>)[names[0]];
  const keys = Object.keys(test ?? {});
  const value: unknown =
    keys.length === 1 && keys[0] === 'const' ? test.const : keys.length === 1 && Array.isArray(test.enum) && test.enum.length === 1 ? test.enum[0] : undefined;
  if (value === undefined) return null;
  if (required !== undefined && !(Array.isArray(required) && required.length === 1 && required[0] === names[0])) return null;
  return { property: names[0], value, then: then as Record<string, unknown> };
}

/**
 * `allOf` of "if P is v then T" rules on a required, enumerated P becomes `oneOf` one branch per value of P:
 * exactly one branch can match P, so it accepts exactly what the rules did, in the form generators follow.
 * Any other shape is left as it is.
 */
function rulesAsOneOf(schema: Record<string, unknown>): Record<string, unknown> | null {
  if (!Array.isArray(schema.allOf) || schema.oneOf || schema.anyOf || schema.if) return null;
  const rules = schema.allOf.map(discriminatedRule);
  if (rules.length === 0 || rules.some((r) => r === null)) return null;
  const property = (rules[0] as Rule).property;
  const base = (schema.properties as Record<string, Record<string, unknown>> | undefined)?.[property];
  const values = Array.isArray(base?.enum) ? (base.enum as unknown[]) : base && 'const' in base ? [base.const] : null;
  if (!values || !Array.isArray(schema.required) || !schema.required.includes(property)) return null;
  if (rules.some((r) => r?.property !== property || !values.includes(r.value))) return null;
  if (new Set(rules.map((r) => r?.value)).size !== rules.length) return null;
  const { allOf: _rules, ...rest } = schema;
  const oneOf = values.map((value) => {
    const then = rules.find((r) => r?.value === value)?.then ?? {};
    // P is required by the base already; saying it in each branch shows readers and linters the branches exclude each other.
    const required = [...new Set([property, ...((then.required as string[]) ?? [])])];
    return { ...then, required, properties: { ...((then.properties as object) ?? {}), [property]: { enum: [value] } } };
  });
  return { ...rest, oneOf };
}

/**
 * The document's schemas in the forms code generators follow, accepting exactly the same values as the
 * validators' (docs/api.md#the-openapi-document): `const` becomes a one-value `enum`, and discriminated
 * `if`/`then` rules become `oneOf`.
 */
export function generatorFriendly<T>(value: T): T {
  if (Array.isArray(value)) return value.map(generatorFriendly) as T;
  if (value === null || typeof value !== 'object') return value;
  const source = rulesAsOneOf(value as Record<string, unknown>) ?? (value as Record<string, unknown>);
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(source)) {
    if (key === 'const') out.enum = [inner];
    else if (key === 'example' || key === 'examples' || key === 'value') out[key] = inner;
    else out[key] = generatorFriendly(inner);
  }
  return out as T;
}

function scopeSentence(operation: JsonSchema): string {
  if (Array.isArray(operation.security) && operation.security.length === 0) return 'Public: takes no API key.';
  const scopes = (operation['x-required-scopes'] as string[] | undefined) ?? [];
  return scopes.length > 0 ? `Needs an API key with the \`${scopes.join('`, `')}\` scope (docs/authentication.md#scopes).` : 'Any API key of the account.';
}

function withResponseExamples(response: JsonSchema, schemas: Record<string, JsonSchema>): JsonSchema {
  const content = response.content as Record<string, JsonSchema> | undefined;
  if (!content) return response;
  const media = Object.fromEntries(
    Object.entries(content).map(([type, body]) => {
      if (body.examples || body.example || !body.schema) return [type, body];
      return [type, { ...body, examples: { default: { value: synthesizeExample(body.schema as JsonSchema, schemas) } } }];
    }),
  );
  return { ...response, content: media };
}

function finishOperation(path: string, operation: JsonSchema, schemas: Record<string, JsonSchema>): JsonSchema {
  const finished: JsonSchema = { ...operation };
  finished.tags ??= [tagOf(path)];
  finished.security ??= [];
  const summary = typeof finished.summary === 'string' ? finished.summary : String(finished.operationId);
  const described = typeof finished.description === 'string' ? finished.description : `${summary}.`;
  finished.description = `${described}\n\n${scopeSentence(finished)}`;
  const body = finished.requestBody as JsonSchema | undefined;
  const examples = REQUEST_EXAMPLES[String(finished.operationId)];
  if (body?.content) {
    const content = body.content as Record<string, JsonSchema>;
    const json = content['application/json'];
    if (json && !json.examples) {
      const given = examples ?? { default: { summary, value: synthesizeExample(json.schema as JsonSchema, schemas) } };
      finished.requestBody = { ...body, content: { ...content, 'application/json': { ...json, examples: given } } };
    }
  }
  const responses = (finished.responses ?? {}) as Record<string, JsonSchema>;
  finished.responses = Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [status, response.$ref ? response : withResponseExamples(response, schemas)]),
  );
  return finished;
}

/** Applies the conventions above to every operation of `paths`. */
export function finishPaths(
  paths: Record<string, Record<string, JsonSchema>>,
  schemas: Record<string, JsonSchema>,
): Record<string, Record<string, JsonSchema>> {
  return Object.fromEntries(
    Object.entries(paths).map(([path, operations]) => [
      path,
      Object.fromEntries(Object.entries(operations).map(([method, op]) => [method, finishOperation(path, op, schemas)])),
    ]),
  );
}

/** Problem responses with an example whose status and code match. */
export function problemExample(status: string, description: string): JsonSchema {
  const code = /^([a-z_]+)/.exec(description)?.[1] ?? 'error';
  return {
    type: `/errors/${code}`,
    title: code.replace(/_/g, ' '),
    status: Number(status),
    code,
    detail: description.split(/[.;:]/)[0],
    request_id: 'req_3f0c2a8e6f1b4c1d',
  };
}
