import { AGENT_NODE_SCHEMAS, AGENT_NODE_TYPES, type JsonSchema } from '@switchboard/schemas';

// The node types (`AgentNode`) are read from these schemas by this package's `SchemaValue`, which knows the
// keywords below. A keyword it does not know would type its value `unknown` and send the flow engine back to casts
// (docs/voice-agents.md#node-types): extend SchemaValue first, then this list.
const SHAPING_KEYWORDS = ['type', 'const', 'enum', 'properties', 'required', 'items', 'additionalProperties'];
// These narrow a value without changing its TypeScript type.
const NARROWING_KEYWORDS = ['minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'minItems', 'maxItems'];
const TYPES_READ = ['string', 'integer', 'number', 'boolean', 'array', 'object'];

/** Every place below `schema` that SchemaValue would read wrongly, as a JSON Pointer and the reason. */
function unreadable(schema: JsonSchema, at: string): string[] {
  const problems: string[] = [];
  for (const keyword of Object.keys(schema)) {
    if (!SHAPING_KEYWORDS.includes(keyword) && !NARROWING_KEYWORDS.includes(keyword)) problems.push(`${at}: ${keyword}`);
  }
  if ('type' in schema && (typeof schema.type !== 'string' || !TYPES_READ.includes(schema.type))) problems.push(`${at}: type ${JSON.stringify(schema.type)}`);
  if (!('type' in schema) && !('const' in schema) && !('enum' in schema)) problems.push(`${at}: no type, const or enum`);
  if (schema.type === 'array') {
    if (schema.items === undefined) problems.push(`${at}: an array without items`);
    else problems.push(...unreadable(schema.items as JsonSchema, `${at}/items`));
  }
  if (schema.properties !== undefined) {
    // The type has exactly the listed properties: a schema that allowed others would accept what the type does not.
    if (schema.additionalProperties !== false) problems.push(`${at}: properties without additionalProperties: false`);
    for (const [name, property] of Object.entries(schema.properties as Record<string, JsonSchema>))
      problems.push(...unreadable(property, `${at}/properties/${name}`));
  }
  return problems;
}

describe('agent node types from their schemas', () => {
  it('has one schema per node type, keyed by the `type` it accepts', () => {
    for (const [key, schema] of Object.entries(AGENT_NODE_SCHEMAS)) expect(schema.properties.type).toEqual({ const: key });
    expect(AGENT_NODE_TYPES).toEqual(['say', 'gather', 'http', 'llm', 'branch', 'transfer', 'hangup']);
  });

  it('uses only the keywords the node types are read with', () => {
    const problems = Object.entries(AGENT_NODE_SCHEMAS).flatMap(([type, schema]) => unreadable(schema, `/${type}`));
    expect(problems).toEqual([]);
  });

  it('names a keyword the node types cannot be read with', () => {
    expect(
      unreadable({ type: 'object', additionalProperties: false, properties: { to: { oneOf: [{ type: 'string' }] }, at: { type: ['string', 'null'] } } }, '/x'),
    ).toEqual(['/x/properties/to: oneOf', '/x/properties/to: no type, const or enum', '/x/properties/at: type ["string","null"]']);
  });
});
