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
  { name: 'Chat', description: 'Typed chat payloads, templates and the replies customers send (docs/chat.md).', prefixes: ['/v1/messages/chat', '/v1/templates', '/v1/inbound'] },
  { name: 'Voice', description: 'Calls and voice agents (docs/voice.md).', prefixes: ['/v1/voice', '/v1/calls', '/v1/agents'] },
  { name: 'Suppressions', description: 'Customers who must not be sent to on a channel (docs/messages.md).', prefixes: ['/v1/suppressions'] },
  { name: 'Account', description: 'Account-wide sending defaults and the callback secret.', prefixes: ['/v1/account'] },
  { name: 'Webhooks', description: 'Endpoints that receive signed events, and their delivery attempts (docs/webhooks.md).', prefixes: ['/v1/webhooks'] },
  { name: 'Events', description: 'Every event of the account and where its deliveries stand (docs/webhooks.md).', prefixes: ['/v1/events'] },
  { name: 'Upstreams', description: 'Carriers and their circuit breakers (admin).', prefixes: ['/v1/upstreams'] },
  { name: 'Provider callbacks', description: 'What the upstream carriers call; each verified with the upstream’s own signature, no API key.', prefixes: ['/v1/providers'] },
  { name: 'Operations', description: 'Health, readiness, metrics and this document; no API key.', prefixes: ['/healthz', '/readyz', '/metrics', '/v1/openapi.json'] },
  { name: 'Webhook events', description: 'What Switchboard sends to your endpoints, signed per Standard Webhooks (docs/webhooks.md#envelope-and-headers).', prefixes: [] },
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

/** `const` becomes a one-value `enum`: the same values for a validator, and the form code generators follow. */
export function generatorFriendly<T>(value: T): T {
  if (Array.isArray(value)) return value.map(generatorFriendly) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
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
  finished.responses = Object.fromEntries(Object.entries(responses).map(([status, response]) => [status, response.$ref ? response : withResponseExamples(response, schemas)]));
  return finished;
}

/** Applies the conventions above to every operation of `paths`. */
export function finishPaths(paths: Record<string, Record<string, JsonSchema>>, schemas: Record<string, JsonSchema>): Record<string, Record<string, JsonSchema>> {
  return Object.fromEntries(
    Object.entries(paths).map(([path, operations]) => [path, Object.fromEntries(Object.entries(operations).map(([method, op]) => [method, finishOperation(path, op, schemas)]))]),
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
