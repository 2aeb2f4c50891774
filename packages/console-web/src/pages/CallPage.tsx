import { Link, useParams } from 'react-router';
import { api, ApiProblem } from '../api';
import { ProblemMessage, StatusBadge, Time } from '../components/ui';
import { useLoad } from '../useLoad';
import { LIVE_STATUSES, type Call } from '../voice/call';
import type { Agent } from '../voice/flow';
import { FlowGraph } from '../voice/FlowGraph';

/**
 * One call: its facts, transcript, recording player and the agent's flow (docs/console.md#calls-and-agents). Polled
 * until the call has ended and its recording is stored; the agent is read as it is now (a replaced agent's new flow).
 */
export function CallPage() {
  const { id = '' } = useParams();
  const detail = useLoad(
    async () => {
      const call = await api<Call>('GET', `/v1/voice/calls/${encodeURIComponent(id)}`);
      // A deleted agent is a 404: the call page still shows everything else.
      const agent = call.agent_id
        ? await api<Agent>('GET', `/v1/voice/agents/${encodeURIComponent(call.agent_id)}`).catch((e: unknown) => {
            if (e instanceof ApiProblem && e.problem.status === 404) return null;
            throw e;
          })
        : null;
      return { call, agent };
    },
    [id],
    2000,
  );
  const call = detail.data?.call;
  const agent = detail.data?.agent;
  return (
    <>
      <p>
        <Link to="/calls">← All calls</Link>
      </p>
      <h1>
        Call <code>{id}</code>
      </h1>
      <ProblemMessage error={detail.error} />
      {call && (
        <>
          <dl className="facts card">
            <dt>Status</dt>
            <dd>
              <StatusBadge status={call.status} /> {call.end_reason && <span className="muted">({call.end_reason})</span>}
            </dd>
            <dt>To</dt>
            <dd>{call.to}</dd>
            <dt>From</dt>
            <dd>{call.from}</dd>
            <dt>Created</dt>
            <dd>
              <Time value={call.created_at} />
            </dd>
            <dt>Answered</dt>
            <dd>
              <Time value={call.answered_at} /> {call.answered_by && <span className="muted">by {call.answered_by}</span>}
            </dd>
            <dt>Ended</dt>
            <dd>
              <Time value={call.ended_at} />
            </dd>
            <dt>Duration</dt>
            <dd>{call.duration_seconds === null ? '—' : `${call.duration_seconds} s`}</dd>
          </dl>

          <section aria-labelledby="recording">
            <h2 id="recording">Recording</h2>
            {call.recording ? (
              // Served by the console API with the session cookie; the /v1 link in `recording.url` needs an API key.
              <audio
                controls
                preload="metadata"
                src={`/console/api/v1/voice/calls/${encodeURIComponent(call.call_id)}/recording`}
                aria-label={`Recording of call ${call.call_id}, ${call.recording.duration_seconds.toFixed(1)} seconds`}
                data-testid="recording"
              />
            ) : (
              <p className="muted">
                {LIVE_STATUSES.has(call.status)
                  ? 'The recording is stored once the call ends.'
                  : 'No recording (the call was not recorded, or it is still being stored).'}
              </p>
            )}
          </section>

          <section aria-labelledby="transcript">
            <h2 id="transcript">Transcript</h2>
            {call.transcript.length === 0 ? (
              <p className="muted">Nothing was said yet.</p>
            ) : (
              <ol className="transcript" data-testid="transcript">
                {call.transcript.map((line, i) => (
                  <li key={i}>
                    <span className="speaker">{line.speaker === 'agent' ? 'Agent' : 'Callee'}</span>
                    <span className="said">{line.text}</span>
                    {line.interrupted && (
                      <span className="interrupted" title="The callee spoke over this turn and the agent stopped: the rest was not heard.">
                        {' '}
                        (interrupted)
                      </span>
                    )}{' '}
                    <Time value={line.at} />
                  </li>
                ))}
              </ol>
            )}
          </section>

          <section aria-labelledby="agent-flow">
            <h2 id="agent-flow">Agent flow</h2>
            {!call.agent_id && <p className="muted">No agent ran this call.</p>}
            {call.agent_id && agent === null && <p className="muted">The agent {call.agent_id} was deleted.</p>}
            {agent && (
              <>
                <p>
                  <Link to={`/agents?id=${agent.id}`}>{agent.name}</Link> <code>{agent.id}</code>
                </p>
                <FlowGraph flow={agent.flow} />
              </>
            )}
          </section>
        </>
      )}
    </>
  );
}
