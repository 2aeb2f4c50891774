import { useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { api, type Page } from '../api';
import { ListTable } from '../components/ListTable';
import { EmptyState, ProblemMessage, Time } from '../components/ui';
import { useCanEdit } from '../session';
import { useLoad } from '../useLoad';
import type { Agent, Flow } from '../voice/flow';
import { FlowGraph } from '../voice/FlowGraph';

// What a new agent starts from: the smallest flow that holds together, to be edited.
const NEW_AGENT = {
  name: 'front desk',
  voice: 'slt',
  flow: { start: 'greet', nodes: { greet: { type: 'say', text: 'Hello, this is Switchboard.', next: 'bye' }, bye: { type: 'hangup' } } },
};

/** The request body an agent is edited as: what PUT /v1/voice/agents/{id} takes. */
function editable(agent: Agent): string {
  const body: Record<string, unknown> = { name: agent.name, flow: agent.flow };
  if (agent.voice !== null) body.voice = agent.voice;
  if (agent.llm !== null) body.llm = agent.llm;
  return JSON.stringify(body, null, 2);
}

function parse(text: string): { body?: Record<string, unknown>; error?: string } {
  try {
    const body = JSON.parse(text) as unknown;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return { error: 'The agent must be a JSON object: { "name", "flow", "voice" }.' };
    return { body: body as Record<string, unknown> };
  } catch (e) {
    return { error: `Not JSON: ${(e as Error).message}` };
  }
}

function previewFlow(body: Record<string, unknown> | undefined): Flow | null {
  const flow = body?.flow as Flow | undefined;
  return flow && typeof flow === 'object' && typeof flow.start === 'string' && flow.nodes && typeof flow.nodes === 'object' ? flow : null;
}

/**
 * Agents, each edited as JSON; the API's validation problems are shown beside the editor with their JSON Pointers
 * (docs/console.md#calls-and-agents). Viewers see the same page read-only.
 */
export function AgentsPage() {
  const canEdit = useCanEdit();
  const [params, setParams] = useSearchParams();
  const selected = params.get('id');
  const list = useLoad(() => api<Page<Agent>>('GET', '/v1/voice/agents?limit=100'), []);
  const [text, setText] = useState(JSON.stringify(NEW_AGENT, null, 2));
  const [problem, setProblem] = useState<unknown>(null);
  const [saved, setSaved] = useState('');

  const current = list.data?.data.find((a) => a.id === selected) ?? null;
  // Loads the selected agent into the editor; the "Saved" note is kept, since saving a new agent selects it.
  useEffect(() => {
    setProblem(null);
    if (!selected) setText(JSON.stringify(NEW_AGENT, null, 2));
    else if (current) setText(editable(current));
  }, [selected, current?.updated_at]);

  const parsed = parse(text);
  const flow = previewFlow(parsed.body);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setProblem(null);
    setSaved('');
    if (!parsed.body) return;
    try {
      const agent = selected
        ? await api<Agent>('PUT', `/v1/voice/agents/${encodeURIComponent(selected)}`, parsed.body)
        : await api<Agent>('POST', '/v1/voice/agents', parsed.body);
      setSaved(`Saved ${agent.name} (${agent.id}).`);
      list.reload();
      if (!selected) setParams({ id: agent.id });
    } catch (e) {
      setProblem(e);
    }
  }

  async function remove(agent: Agent) {
    setProblem(null);
    try {
      await api('DELETE', `/v1/voice/agents/${encodeURIComponent(agent.id)}`);
      if (selected === agent.id) setParams({});
      list.reload();
    } catch (e) {
      setProblem(e);
    }
  }

  return (
    <>
      <h1>Agents</h1>
      <ProblemMessage error={list.error} />
      <section aria-labelledby="agent-list">
        <h2 id="agent-list">Agents</h2>
        <ListTable
          headers={['Name', 'Id', 'Nodes', 'Updated', 'Action']}
          rows={list.data?.data}
          empty={
            <EmptyState title="No agents yet">
              <p>An agent is a flow of nodes (say, gather, branch, http, llm, hangup) that runs a call.</p>
            </EmptyState>
          }
        >
          {(a) => (
            <tr key={a.id} data-agent={a.name} aria-current={a.id === selected ? 'true' : undefined}>
              <td>{a.name}</td>
              <td>
                <code>{a.id}</code>
              </td>
              <td>{Object.keys(a.flow.nodes ?? {}).length}</td>
              <td>
                <Time value={a.updated_at} />
              </td>
              <td className="actions">
                <button
                  type="button"
                  onClick={() => {
                    setSaved('');
                    setParams({ id: a.id });
                  }}
                  aria-label={`${canEdit ? 'Edit' : 'View'} agent ${a.name}`}
                >
                  {canEdit ? 'Edit' : 'View'}
                </button>
                {canEdit && (
                  <button type="button" className="danger" onClick={() => void remove(a)} aria-label={`Delete agent ${a.name}`}>
                    Delete
                  </button>
                )}
              </td>
            </tr>
          )}
        </ListTable>
      </section>

      <section aria-labelledby="agent-editor">
        <h2 id="agent-editor">{selected ? `Agent ${current?.name ?? selected}` : 'New agent'}</h2>
        {selected && canEdit && (
          <p>
            <button
              type="button"
              onClick={() => {
                setSaved('');
                setParams({});
              }}
            >
              New agent instead
            </button>
          </p>
        )}
        <form onSubmit={(e) => void save(e)} className="card">
          <div className="editor-row">
            <label>
              Agent as JSON: name, voice and flow (docs/voice.md lists the node types)
              <textarea
                className="json"
                rows={22}
                spellCheck={false}
                value={text}
                readOnly={!canEdit}
                onChange={(e) => {
                  setSaved('');
                  setText(e.target.value);
                }}
                aria-describedby="agent-problems"
                aria-invalid={Boolean(parsed.error || problem)}
              />
            </label>
            <div id="agent-problems" aria-live="polite">
              {parsed.error && (
                <div role="alert" className="alert">
                  <strong>{parsed.error}</strong>
                </div>
              )}
              <ProblemMessage error={problem} />
              {saved && <p role="status">{saved}</p>}
              {!parsed.error && !problem && !saved && (
                <p className="muted">The API checks the flow when you save: each problem is listed here with its JSON Pointer.</p>
              )}
            </div>
          </div>
          {canEdit && (
            <button type="submit" disabled={Boolean(parsed.error)}>
              {selected ? 'Save agent' : 'Create agent'}
            </button>
          )}
        </form>
        <h3>Flow</h3>
        {flow ? <FlowGraph flow={flow} /> : <p className="muted">The flow needs a "start" and "nodes" to be drawn.</p>}
      </section>
    </>
  );
}
