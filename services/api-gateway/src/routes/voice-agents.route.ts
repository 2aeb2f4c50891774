import { Router, type RequestHandler } from 'express';
import { isId, NotFoundError } from '@switchboard/domain';
import type { AgentRequest } from '@switchboard/schemas';
import { toAgentResource, type AgentDefinition, type AgentsRepository } from '@switchboard/store';
import type { DependencyGuard } from '../http/dependency-guard';
import { callerOf } from '../http/request-context';
import { pageOf, parsePageQuery } from '../pagination/page-query';

export interface VoiceAgentHandlersDeps {
  agents: Pick<AgentsRepository, 'create' | 'replace' | 'find' | 'list' | 'remove'>;
  /** Checks the flow as a graph too: 400 with the JSON Pointer of each problem (docs/voice-agents.md#agents). */
  validate: (body: unknown) => AgentRequest;
  guard: DependencyGuard;
  clock?: () => number;
}

function definitionOf(request: AgentRequest): AgentDefinition {
  return { name: request.name, flow: request.flow, voice: request.voice ?? null, llm: request.llm ?? null };
}

/** `/v1/voice/agents` CRUD. */
export function createVoiceAgentHandlers({ agents, validate, guard, clock = Date.now }: VoiceAgentHandlersDeps) {
  const agentId = (id: unknown): string => {
    if (!isId('agt', id)) throw new NotFoundError();
    return id;
  };

  const createAgent: RequestHandler = async (req, res) => {
    const { accountId } = callerOf(res);
    const definition = definitionOf(validate(req.body));
    const row = await guard('store', () => agents.create(accountId, definition, new Date(clock())));
    res.status(201).setHeader('Location', `/v1/voice/agents/${row.id}`);
    res.json(toAgentResource(row));
  };

  const replaceAgent: RequestHandler = async (req, res) => {
    const { accountId } = callerOf(res);
    const id = agentId(req.params.id);
    const definition = definitionOf(validate(req.body));
    const row = await guard('store', () => agents.replace(accountId, id, definition, new Date(clock())));
    if (!row) throw new NotFoundError();
    res.json(toAgentResource(row));
  };

  const getAgent: RequestHandler = async (req, res) => {
    const { accountId } = callerOf(res);
    const id = agentId(req.params.id);
    const row = await guard('store', () => agents.find(accountId, id));
    if (!row) throw new NotFoundError();
    res.json(toAgentResource(row));
  };

  const listAgents: RequestHandler = async (req, res) => {
    const { accountId } = callerOf(res);
    const page = parsePageQuery(req.query as Record<string, unknown>, 'agt');
    const rows = await guard('store', () => agents.list(accountId, { beforeId: page.beforeId, limit: page.limit + 1 }));
    res.json(pageOf(rows.map(toAgentResource), page.limit));
  };

  const deleteAgent: RequestHandler = async (req, res) => {
    const { accountId } = callerOf(res);
    const id = agentId(req.params.id);
    if (!(await guard('store', () => agents.remove(accountId, id)))) throw new NotFoundError();
    res.status(204).end();
  };

  return { createAgent, replaceAgent, getAgent, listAgents, deleteAgent };
}

export function voiceAgentsRouter({
  authenticate,
  body,
  handlers,
}: {
  authenticate: RequestHandler[];
  body: RequestHandler[];
  handlers: ReturnType<typeof createVoiceAgentHandlers>;
}): Router {
  const router = Router();
  router.post('/v1/voice/agents', ...authenticate, ...body, handlers.createAgent);
  router.get('/v1/voice/agents', ...authenticate, handlers.listAgents);
  router.get('/v1/voice/agents/:id', ...authenticate, handlers.getAgent);
  router.put('/v1/voice/agents/:id', ...authenticate, ...body, handlers.replaceAgent);
  router.delete('/v1/voice/agents/:id', ...authenticate, handlers.deleteAgent);
  return router;
}
