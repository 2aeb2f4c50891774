import { newId, toIso } from '@switchboard/domain';
import type { AgentNode } from '@switchboard/schemas';
import type { Queryable } from '../db';

export interface AgentRow {
  id: string;
  account_id: string;
  name: string;
  flow: AgentFlowDocument;
  voice: string | null;
  llm: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
}

/** The flow as stored: already checked by packages/schemas' flow validator (docs/voice-agents.md#agents). */
export interface AgentFlowDocument {
  start: string;
  nodes: Record<string, AgentNode>;
  /** Seconds of callee silence, while the agent is not speaking, that end the call (docs/voice-agents.md#silence-timeout). */
  silence_timeout_seconds?: number;
  /** Speech over a reply shorter than this is a backchannel, not a barge-in (docs/voice-agents.md#full-duplex-listening). */
  backchannel_ms?: number;
  /** Silence that ends the callee's turn (docs/voice-agents.md#end-of-turn). */
  end_of_speech_ms?: number;
  /** The longest utterance a turn takes (docs/voice-agents.md#end-of-turn). */
  max_utterance_seconds?: number;
}

export interface AgentDefinition {
  name: string;
  flow: AgentFlowDocument;
  voice: string | null;
  llm: Record<string, unknown> | null;
}

export function toAgentResource(row: AgentRow) {
  return {
    id: row.id,
    name: row.name,
    flow: row.flow,
    voice: row.voice,
    llm: row.llm,
    created_at: toIso(row.created_at) as string,
    updated_at: toIso(row.updated_at) as string,
  };
}

export function createAgentsRepository(db: Queryable) {
  return {
    async create(accountId: string, agent: AgentDefinition, at: Date): Promise<AgentRow> {
      const { rows } = await db.query<AgentRow>(
        `INSERT INTO agents (id, account_id, name, flow, voice, llm, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING *`,
        [newId('agt'), accountId, agent.name, JSON.stringify(agent.flow), agent.voice, agent.llm ? JSON.stringify(agent.llm) : null, at],
      );
      return rows[0];
    },
    async replace(accountId: string, id: string, agent: AgentDefinition, at: Date): Promise<AgentRow | null> {
      const { rows } = await db.query<AgentRow>(
        `UPDATE agents SET name = $3, flow = $4, voice = $5, llm = $6, updated_at = $7 WHERE id = $1 AND account_id = $2 RETURNING *`,
        [id, accountId, agent.name, JSON.stringify(agent.flow), agent.voice, agent.llm ? JSON.stringify(agent.llm) : null, at],
      );
      return rows[0] ?? null;
    },
    async find(accountId: string, id: string): Promise<AgentRow | null> {
      const { rows } = await db.query<AgentRow>('SELECT * FROM agents WHERE id = $1 AND account_id = $2', [id, accountId]);
      return rows[0] ?? null;
    },
    /** The orchestrator reads the agent of a call it already holds, so no account filter. */
    async findById(id: string): Promise<AgentRow | null> {
      const { rows } = await db.query<AgentRow>('SELECT * FROM agents WHERE id = $1', [id]);
      return rows[0] ?? null;
    },
    async list(accountId: string, page: { beforeId?: string; limit: number }): Promise<AgentRow[]> {
      const { rows } = await db.query<AgentRow>(`SELECT * FROM agents WHERE account_id = $1 AND ($2::text IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`, [
        accountId,
        page.beforeId ?? null,
        page.limit,
      ]);
      return rows;
    },
    async remove(accountId: string, id: string): Promise<boolean> {
      const { rowCount } = await db.query('DELETE FROM agents WHERE id = $1 AND account_id = $2', [id, accountId]);
      return (rowCount ?? 0) > 0;
    },
  };
}
export type AgentsRepository = ReturnType<typeof createAgentsRepository>;
