import type { JsonSchema } from './json-schema';
import { idParameter, jsonResponse, pageOf, pageParameters, problemResponses, schemaRef, withScope } from './openapi-operation.parts';
import { agentRequestSchema } from './voice/agent-request.validator';
import { AGENT_NODE_SCHEMAS } from './voice/agent-node.schemas';
import { callRequestSchema } from './voice/call-request.schema';

// The voice API (docs/voice.md#calls), from the same schemas that validate its requests.

const timestamp: JsonSchema = { type: 'string', format: 'date-time' };
const nullableTimestamp: JsonSchema = { type: ['string', 'null'], format: 'date-time' };
const callStatus: JsonSchema = { enum: ['ringing', 'in-progress', 'completed', 'busy', 'no-answer', 'failed', 'canceled'] };

const createdCall: JsonSchema = {
  type: 'object',
  required: ['call_id', 'status', 'to', 'from', 'agent_id', 'created_at'],
  properties: {
    call_id: { type: 'string' },
    status: callStatus,
    to: { type: 'string' },
    from: { type: 'string' },
    agent_id: { type: ['string', 'null'] },
    created_at: timestamp,
  },
};

const call: JsonSchema = {
  type: 'object',
  required: [...(createdCall.required as string[]), 'answered_at', 'ended_at', 'duration_seconds', 'end_reason', 'recording', 'transcript'],
  properties: {
    ...(createdCall.properties as Record<string, JsonSchema>),
    answered_at: nullableTimestamp,
    ended_at: nullableTimestamp,
    duration_seconds: { type: ['integer', 'null'] },
    end_reason: { type: ['string', 'null'], description: 'docs/voice.md#call-lifecycle lists the values.' },
    answered_by: { enum: ['human', 'machine', 'unknown', null], description: 'Set when the call asked for machine_detection.' },
    attempt: { type: 'integer', minimum: 1, description: 'The dial attempt (retries).' },
    recording: {
      oneOf: [
        { type: 'null' },
        { type: 'object', required: ['url', 'duration_seconds'], properties: { url: { type: 'string' }, duration_seconds: { type: 'number' } } },
      ],
    },
    transcript: {
      type: 'array',
      items: {
        type: 'object',
        required: ['speaker', 'text', 'at'],
        properties: {
          speaker: { enum: ['agent', 'callee'] },
          text: { type: 'string' },
          at: timestamp,
          interrupted: { const: true, description: 'On an agent turn the callee cut short by speaking (barge-in); absent otherwise.' },
        },
      },
    },
    metadata: { type: 'object', additionalProperties: { type: 'string' }, description: 'What the call was placed with; `{}` when nothing, as on a message.' },
  },
};

const agent: JsonSchema = {
  type: 'object',
  required: ['id', 'name', 'flow', 'voice', 'llm', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    flow: { type: 'object' },
    voice: { type: ['string', 'null'] },
    llm: { type: ['object', 'null'] },
    created_at: timestamp,
    updated_at: timestamp,
  },
};

export const voiceOpenApiSchemas: Record<string, JsonSchema> = {
  CallRequest: callRequestSchema,
  CallCreated: createdCall,
  Call: call,
  CallList: pageOf('Call'),
  AgentRequest: {
    ...withNodeSchemas(agentRequestSchema),
    description: `Each node is one of: ${Object.keys(AGENT_NODE_SCHEMAS).join(', ')} (docs/voice-agents.md#node-types). Flows are checked as graphs too: a dangling exit or an unreachable node is a 400 naming its JSON Pointer.`,
  },
  Agent: agent,
  AgentList: pageOf('Agent'),
};

/**
 * The document shows each node type's shape (one `oneOf` per node); the validator checks nodes one by one
 * instead, so that each problem is named by its own JSON Pointer (docs/voice-agents.md#agents).
 */
function withNodeSchemas(request: JsonSchema): JsonSchema {
  const properties = request.properties as Record<string, JsonSchema>;
  const flow = properties.flow as JsonSchema & { properties: Record<string, JsonSchema> };
  const nodes = { ...flow.properties.nodes, additionalProperties: { oneOf: Object.values(AGENT_NODE_SCHEMAS) } };
  return { ...request, properties: { ...properties, flow: { ...flow, properties: { ...flow.properties, nodes } } } };
}

const callId = idParameter('call');
const agentId = idParameter('agt');

export const voiceOpenApiPaths: Record<string, Record<string, JsonSchema>> = {
  '/v1/voice/calls': {
    post: withScope('calls:write', {
      operationId: 'createCall',
      summary: 'Place an outbound call, optionally run by an agent',
      parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }],
      requestBody: { required: true, content: { 'application/json': { schema: schemaRef('CallRequest') } } },
      responses: { '201': jsonResponse('CallCreated', 'Accepted: ringing.'), ...problemResponses('400', '401', '403', '413', '415', '422', '429', '503') },
    }),
    get: withScope('calls:read', {
      operationId: 'listCalls',
      summary: 'Calls, newest first',
      parameters: [
        ...pageParameters,
        { name: 'status', in: 'query', required: false, schema: callStatus },
        { name: 'to', in: 'query', required: false, schema: { type: 'string' } },
        { name: 'agent_id', in: 'query', required: false, schema: { type: 'string' } },
      ],
      responses: { '200': jsonResponse('CallList', 'A page of calls.'), ...problemResponses('400', '401', '403', '429', '503') },
    }),
  },
  '/v1/voice/calls/{id}': {
    get: withScope('calls:read', {
      operationId: 'getCall',
      summary: 'A call with its transcript and recording link',
      parameters: [callId],
      responses: { '200': jsonResponse('Call', 'The call.'), ...problemResponses('401', '403', '404', '429', '503') },
    }),
  },
  '/v1/voice/calls/{id}/hangup': {
    post: withScope('calls:write', {
      operationId: 'hangupCall',
      summary: 'End a call: ringing → canceled, in-progress → completed',
      parameters: [callId],
      responses: {
        '200': jsonResponse('Call', 'The call, ended.'),
        '202': jsonResponse('Call', 'The hangup was sent to the orchestrator holding the call; it has not ended yet.'),
        ...problemResponses('401', '403', '404', '409', '429', '503'),
      },
    }),
  },
  '/v1/voice/calls/{id}/recording': {
    get: withScope('calls:read', {
      operationId: 'getCallRecording',
      summary: 'The recording: stereo WAV, 8 kHz 16-bit PCM, callee left, agent right',
      parameters: [callId],
      responses: {
        '200': {
          description: 'The recording.',
          content: {
            'audio/wav': {
              schema: { type: 'string', format: 'binary' },
              // A WAV is bytes; the example shows how the file starts (docs/voice.md#recording), not a whole file.
              examples: { default: { summary: 'RIFF/WAVE: stereo, 8000 Hz, 16-bit PCM', value: 'RIFF....WAVEfmt ' } },
            },
          },
        },
        ...problemResponses('401', '403', '404', '429', '503'),
      },
    }),
  },
  '/v1/voice/agents': {
    post: withScope('agents:write', {
      operationId: 'createAgent',
      summary: 'Create an agent',
      requestBody: { required: true, content: { 'application/json': { schema: schemaRef('AgentRequest') } } },
      responses: { '201': jsonResponse('Agent', 'The agent.'), ...problemResponses('400', '401', '403', '413', '415', '429', '503') },
    }),
    get: withScope('agents:write', {
      operationId: 'listAgents',
      summary: 'Agents, newest first',
      parameters: pageParameters,
      responses: { '200': jsonResponse('AgentList', 'A page of agents.'), ...problemResponses('400', '401', '403', '429', '503') },
    }),
  },
  '/v1/voice/agents/{id}': {
    get: withScope('agents:write', {
      operationId: 'getAgent',
      summary: 'An agent',
      parameters: [agentId],
      responses: { '200': jsonResponse('Agent', 'The agent.'), ...problemResponses('401', '403', '404', '429', '503') },
    }),
    put: withScope('agents:write', {
      operationId: 'replaceAgent',
      summary: 'Replace an agent; calls already placed keep the flow they started with',
      parameters: [agentId],
      requestBody: { required: true, content: { 'application/json': { schema: schemaRef('AgentRequest') } } },
      responses: { '200': jsonResponse('Agent', 'The agent.'), ...problemResponses('400', '401', '403', '404', '413', '415', '429', '503') },
    }),
    delete: withScope('agents:write', {
      operationId: 'deleteAgent',
      summary: 'Delete an agent',
      parameters: [agentId],
      responses: { '204': { description: 'Deleted.' }, ...problemResponses('401', '403', '404', '429', '503') },
    }),
  },
};
