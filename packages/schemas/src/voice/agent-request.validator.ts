import { ValidationError, type FieldError } from '@switchboard/domain';
import { childPointer } from '../field-errors';
import type { JsonSchema } from '../json-schema';
import { compileSchema, type SchemaValidator } from '../validator';
import { AGENT_NODE_SCHEMAS, AGENT_NODE_TYPES, nodeExits, type AgentNode } from './agent-node.schemas';

export interface AgentRequest {
  name: string;
  flow: {
    start: string;
    nodes: Record<string, AgentNode>;
    silence_timeout_seconds?: number;
    backchannel_ms?: number;
    end_of_speech_ms?: number;
    max_utterance_seconds?: number;
  };
  voice?: string;
  llm?: Record<string, unknown>;
}

export const agentRequestSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'flow'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    flow: {
      type: 'object',
      additionalProperties: false,
      required: ['start', 'nodes'],
      properties: {
        start: { type: 'string', minLength: 1, maxLength: 64 },
        nodes: {
          type: 'object',
          minProperties: 1,
          maxProperties: 200,
          propertyNames: { pattern: '^[A-Za-z0-9_-]{1,64}$' },
          additionalProperties: { type: 'object' },
        },
        silence_timeout_seconds: {
          type: 'integer',
          minimum: 3,
          maximum: 3600,
          description: 'Seconds of callee silence (no speech, no digit) while the agent is not speaking that end the call with `silence_timeout`; default 30.',
        },
        backchannel_ms: {
          type: 'integer',
          minimum: 0,
          maximum: 2000,
          description:
            'Milliseconds of speech the callee needs to stop a `say` or `llm` reply; shorter speech over a reply ("uh-huh") is a backchannel and is not input. 0 stops a reply at the first 100 ms of speech; default 400.',
        },
        end_of_speech_ms: {
          type: 'integer',
          minimum: 200,
          maximum: 3000,
          description:
            "Milliseconds of the callee's silence that end their turn; default 400. A keywords gather ends it sooner when the words so far complete a branch.",
        },
        max_utterance_seconds: {
          type: 'integer',
          minimum: 2,
          maximum: 60,
          description: 'The longest utterance a turn takes before it is recognised as it stands; default 15.',
        },
      },
    },
    voice: { type: 'string', pattern: '^[a-z0-9_-]{1,40}$', description: 'A TTS voice, e.g. `slt` or `rms` for flite.' },
    llm: { type: 'object', properties: { model: { type: 'string', maxLength: 100 }, temperature: { type: 'number', minimum: 0, maximum: 2 } } },
  },
};

/**
 * A flow that does not hold together is a 400 naming the JSON Pointer of the problem (docs/voice-agents.md#agents):
 * an unknown node type, a node that does not match its type's schema, an exit to a node that does not exist,
 * and a node that cannot be reached from `start`.
 */
export function createAgentRequestValidator(): (body: unknown) => AgentRequest {
  const checkShape = compileSchema(agentRequestSchema);
  const nodeChecks: Record<string, SchemaValidator> = Object.fromEntries(
    Object.entries(AGENT_NODE_SCHEMAS).map(([type, schema]) => [type, compileSchema(schema)]),
  );
  return (body) => {
    const shapeErrors = checkShape(body);
    if (shapeErrors.length > 0) throw new ValidationError(shapeErrors);
    const request = body as AgentRequest;
    const errors: FieldError[] = [];
    const nodes = request.flow.nodes;
    const base = '/flow/nodes';
    if (!Object.hasOwn(nodes, request.flow.start)) errors.push({ field: '/flow/start', message: `names no node: "${request.flow.start}"` });
    for (const [id, node] of Object.entries(nodes)) {
      const at = childPointer(base, id);
      const check = nodeChecks[node.type];
      if (!check) {
        errors.push({ field: `${at}/type`, message: `must be one of ${AGENT_NODE_TYPES.join(', ')}` });
        continue;
      }
      for (const e of check(node)) errors.push({ field: `${at}${e.field}`, message: e.message });
      for (const exit of nodeExits(node)) {
        if (!Object.hasOwn(nodes, exit.target)) errors.push({ field: `${at}${exit.pointer}`, message: `names no node: "${exit.target}"` });
      }
    }
    if (errors.length === 0) {
      const reached = new Set<string>([request.flow.start]);
      const pending = [request.flow.start];
      while (pending.length > 0) {
        for (const exit of nodeExits(nodes[pending.pop() as string])) {
          if (!reached.has(exit.target)) {
            reached.add(exit.target);
            pending.push(exit.target);
          }
        }
      }
      for (const id of Object.keys(nodes))
        if (!reached.has(id)) errors.push({ field: childPointer(base, id), message: `cannot be reached from "${request.flow.start}"` });
    }
    if (errors.length > 0) throw new ValidationError(errors, 'The agent flow does not hold together.');
    return request;
  };
}
