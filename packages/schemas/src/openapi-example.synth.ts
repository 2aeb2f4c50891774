import { QUIET_HOURS_TIME_PATTERN } from '@switchboard/domain';
import { HTTP_URL_PATTERN, TEMPLATE_LANGUAGE_PATTERN, type JsonSchema } from './json-schema';

/*
 * Response examples made from the response schemas themselves, so that every operation has one and none
 * can drift from what it illustrates (docs/api.md#examples). Request examples are written by hand
 * (openapi-request.examples.ts): a request example is sent as is by the Postman collection.
 */

const SAMPLE_ULID = '01JD3Q8M6D2G8Y1X4TQH2V7K9B';
const SAMPLE_TIME = '2026-11-23T12:00:00.000Z';
const MAX_DEPTH = 8;

function sampleString(schema: JsonSchema): string {
  const pattern = typeof schema.pattern === 'string' ? schema.pattern : '';
  if (pattern === TEMPLATE_LANGUAGE_PATTERN) return 'en_US';
  if (pattern === QUIET_HOURS_TIME_PATTERN) return '21:00';
  if (pattern === HTTP_URL_PATTERN) return 'https://example.com/hooks/switchboard';
  const prefixed = /^\^\(?([a-z]+)[_|]/.exec(pattern);
  if (prefixed && prefixed[1] === 'whsec') return 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  if (prefixed) return `${prefixed[1]}_${SAMPLE_ULID}`;
  if (pattern.includes('\\+[1-9]')) return '+14155552671';
  if (pattern.startsWith('^sha256=')) return `sha256=${'0'.repeat(64)}`;
  switch (schema.format) {
    case 'date-time':
      return SAMPLE_TIME;
    case 'date':
      return SAMPLE_TIME.slice(0, 10);
    case 'uri':
    case 'url':
      return 'https://example.com/hooks/switchboard';
    case 'uuid':
      return '3f0c2a8e-6f1b-4c1d-9f55-2a9d6c1e7b10';
    case 'email':
      return 'ops@example.com';
    default:
      return typeof schema.minLength === 'number' && schema.minLength > 6 ? 'x'.repeat(schema.minLength) : 'string';
  }
}

function resolve(schema: JsonSchema, schemas: Record<string, JsonSchema>): JsonSchema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 10; hops++) {
    current = schemas[current.$ref.replace('#/components/schemas/', '')] ?? {};
  }
  return current;
}

/** One value that `schema` accepts, built from its `examples`, `const`, `enum`, formats and bounds. */
export function synthesizeExample(raw: JsonSchema, schemas: Record<string, JsonSchema>, depth = 0): unknown {
  const schema = resolve(raw, schemas);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('default' in schema && schema.default !== undefined) return schema.default;
  if (depth > MAX_DEPTH) return null;
  const alternatives = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    return synthesizeExample({ ...schema, oneOf: undefined, anyOf: undefined, ...alternatives[0] }, schemas, depth + 1);
  }
  if (Array.isArray(schema.allOf)) {
    const parts = (schema.allOf as JsonSchema[]).map((part) => resolve(part, schemas));
    const merged: JsonSchema = {
      ...schema,
      allOf: undefined,
      properties: { ...(schema.properties as object) },
      required: [...((schema.required as string[]) ?? [])],
    };
    for (const part of parts) {
      Object.assign(merged.properties as object, part.properties ?? {});
      (merged.required as string[]).push(...((part.required as string[]) ?? []));
      if (part.type && !merged.type) merged.type = part.type;
    }
    return synthesizeExample(merged, schemas, depth + 1);
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [schema.type as string] : schema.properties ? ['object'] : [];
  const type = types.find((t) => t !== 'null') ?? types[0];
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, synthesizeExample(property, schemas, depth + 1)]));
    }
    case 'array':
      return schema.items ? [synthesizeExample(schema.items as JsonSchema, schemas, depth + 1)] : [];
    case 'integer':
      return typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 1;
    case 'number':
      return typeof schema.maximum === 'number' && schema.maximum <= 1 ? 0.25 : 1.5;
    case 'boolean':
      return true;
    case 'string':
      return sampleString(schema);
    case 'null':
      return null;
    default:
      return {};
  }
}
