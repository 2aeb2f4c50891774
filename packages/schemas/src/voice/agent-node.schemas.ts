import type { JsonSchema, SchemaValue } from '../json-schema';

// One schema per node type (docs/voice-agents.md#node-types), written `as const` so that the node types below are
// read from them. Each names the properties that point at other nodes, so the flow check can follow them without
// knowing the node's shape.

const nodeId = { type: 'string', minLength: 1, maxLength: 64 } as const;
const text = { type: 'string', minLength: 1, maxLength: 2_000 } as const;
// False: the callee's speech never stops this node's audio; it is still heard and kept (docs/voice-agents.md#full-duplex-listening).
const interruptible = { type: 'boolean' } as const;

function node<const T extends string, const R extends readonly string[], const P extends Record<string, JsonSchema>>(type: T, required: R, properties: P) {
  return { type: 'object', additionalProperties: false, required: ['type', ...required], properties: { type: { const: type }, ...properties } } as const;
}

export const AGENT_NODE_SCHEMAS = {
  say: node('say', ['text', 'next'], { text, interruptible, next: nodeId }),
  gather: node('gather', ['input', 'timeout_seconds', 'branches', 'no_input', 'no_match'], {
    input: { enum: ['dtmf', 'speech', 'both'] },
    prompt: text,
    interruptible,
    max_digits: { type: 'integer', minimum: 1, maximum: 32 },
    finish_key: { enum: ['#', '*'] },
    timeout_seconds: { type: 'number', minimum: 1, maximum: 60 },
    inter_digit_timeout_seconds: { type: 'number', minimum: 1, maximum: 30 },
    save_as: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]{0,39}$' },
    // Speech with the local recogniser: `keywords` can answer no_match (docs/voice-recognition.md).
    recognition: { enum: ['grammar', 'keywords'] },
    branches: {
      type: 'array',
      maxItems: 32,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['match', 'next'],
        properties: {
          match: { type: 'string', minLength: 1, maxLength: 200 },
          // Speech only: other ways to say the branch, each matched as `match` is (docs/voice-recognition.md).
          phrases: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 200 } },
          next: nodeId,
        },
      },
    },
    no_input: nodeId,
    no_match: nodeId,
  }),
  http: node('http', ['method', 'url', 'save_as', 'next', 'on_error'], {
    method: { enum: ['GET', 'POST'] },
    url: { type: 'string', minLength: 1, maxLength: 2_000 },
    body: { type: 'object' },
    save_as: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]{0,39}$' },
    timeout_ms: { type: 'integer', minimum: 100, maximum: 10_000 },
    next: nodeId,
    on_error: nodeId,
  }),
  llm: node('llm', ['system_prompt', 'goal', 'max_turns', 'next'], {
    system_prompt: { type: 'string', minLength: 1, maxLength: 8_000 },
    goal: { type: 'string', minLength: 1, maxLength: 2_000 },
    max_turns: { type: 'integer', minimum: 1, maximum: 50 },
    interruptible,
    // The offline recogniser needs a grammar: what the callee is expected to say (docs/voice-agents.md#llm).
    expected_phrases: { type: 'array', minItems: 1, maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 200 } },
    next: nodeId,
    on_error: nodeId,
  }),
  branch: node('branch', ['conditions', 'else'], {
    conditions: {
      type: 'array',
      maxItems: 32,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['if', 'next'],
        properties: { if: { type: 'string', minLength: 1, maxLength: 500 }, next: nodeId },
      },
    },
    else: nodeId,
  }),
  // `to` becomes the user part of the REFER's Refer-To, so only characters a SIP user part takes unescaped.
  // `mode: bridge` dials `to` as a second leg and relays audio and digits between the two (docs/voice-agents.md#bridged-transfer).
  transfer: node('transfer', ['to'], {
    to: { type: 'string', pattern: '^[A-Za-z0-9+*#._-]{1,64}$' },
    mode: { enum: ['refer', 'bridge'] },
    timeout_seconds: { type: 'integer', minimum: 5, maximum: 120 },
    on_error: nodeId,
  }),
  hangup: node('hangup', [], {}),
} satisfies Record<string, JsonSchema>;

export const AGENT_NODE_TYPES = Object.keys(AGENT_NODE_SCHEMAS);

type AgentNodeSchemas = typeof AGENT_NODE_SCHEMAS;

/**
 * A node of a checked flow: one of the node types, told apart by `type`, each exactly as its schema above accepts
 * it (docs/voice-agents.md#node-types).
 */
export type AgentNode = { [T in keyof AgentNodeSchemas]: SchemaValue<AgentNodeSchemas[T]> }[keyof AgentNodeSchemas];

/** The node of one type, e.g. `AgentNodeOf<'gather'>`. */
export type AgentNodeOf<T extends AgentNode['type']> = Extract<AgentNode, { type: T }>;

/** The node ids a node can lead to, each with its JSON Pointer below the node. */
export function nodeExits(node: Record<string, unknown>): Array<{ pointer: string; target: string }> {
  const exits: Array<{ pointer: string; target: string }> = [];
  for (const key of ['next', 'no_input', 'no_match', 'on_error', 'else']) {
    const target = node[key];
    if (typeof target === 'string') exits.push({ pointer: `/${key}`, target });
  }
  for (const list of ['branches', 'conditions']) {
    const items = node[list];
    if (Array.isArray(items))
      items.forEach(
        (item: { next?: unknown } | null | undefined, i) => typeof item?.next === 'string' && exits.push({ pointer: `/${list}/${i}/next`, target: item.next }),
      );
  }
  return exits;
}
