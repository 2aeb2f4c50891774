import { PageIterator } from '../pagination';
import type { Transport } from '../transport';
import type { Agent, AgentRequest, Page, PageQuery } from '../types';
import { route } from './path';

/**
 * Voice agents: a flow of nodes that runs a call (docs/voice-agents.md#agents). A flow that does not hold together is an
 * ApiError 400 whose `errors` name each problem by JSON Pointer, e.g. `/flow/nodes/a/next`.
 */
export class Agents {
  constructor(private readonly transport: Transport) {}

  create(agent: AgentRequest): Promise<Agent> {
    return this.transport.request('POST', '/v1/voice/agents', { body: agent });
  }

  get(id: string): Promise<Agent> {
    return this.transport.request('GET', route`/v1/voice/agents/${id}`);
  }

  /** Replaces the whole agent; calls already placed keep the flow they started with. */
  replace(id: string, agent: AgentRequest): Promise<Agent> {
    return this.transport.request('PUT', route`/v1/voice/agents/${id}`, { body: agent });
  }

  listPage(query: PageQuery = {}): Promise<Page<Agent>> {
    return this.transport.request('GET', '/v1/voice/agents', { query: { ...query } });
  }

  list(query: Omit<PageQuery, 'cursor'> = {}): PageIterator<Agent> {
    return new PageIterator((cursor) => this.listPage({ ...query, cursor }));
  }

  async delete(id: string): Promise<void> {
    await this.transport.request('DELETE', route`/v1/voice/agents/${id}`);
  }
}
