import { useParams, Link } from 'react-router';
import { api, type Page } from '../api';
import { ProblemMessage, StatusBadge, Time } from '../components/ui';
import { useLoad } from '../useLoad';

interface Attempt {
  channel: string;
  status: string;
  error_code: string | null;
  [key: string]: unknown;
}
interface Message {
  id: string;
  status: string;
  channel: string;
  channel_used: string | null;
  recipient: string;
  created_at: string;
  cost_units: number;
  error: { code: string; message: string } | null;
  attempts: Attempt[];
}
interface Transition {
  sequence: number;
  status: string;
  channel: string | null;
  carrier_status_code: string | null;
  error_code: string | null;
  at: string;
}
interface EventSummary {
  id: string;
  type: string;
  created_at: string;
}
interface EventDetail extends EventSummary {
  deliveries: Array<{
    id: string;
    target: string;
    url: string;
    status: string;
    attempts: number;
    last_status_code: number | null;
    delivered_at: string | null;
  }>;
}

const FINAL = new Set(['read', 'failed', 'undelivered']);

/** One message's timeline, polled every 2 s while the page is open (docs/console.md#pages). */
export function MessagePage() {
  const { id = '' } = useParams();
  const detail = useLoad(
    async () => {
      const [message, transitions, events] = await Promise.all([
        api<Message>('GET', `/v1/messages/${id}`),
        api<{ data: Transition[] }>('GET', `/v1/messages/${id}/events`),
        api<Page<EventSummary>>('GET', `/v1/events?resource_id=${encodeURIComponent(id)}&limit=100`),
      ]);
      const withDeliveries = await Promise.all(events.data.map((e) => api<EventDetail>('GET', `/v1/events/${e.id}`)));
      return { message, transitions: transitions.data, events: withDeliveries };
    },
    [id],
    2000,
  );
  const data = detail.data;
  return (
    <>
      <p>
        <Link to="/messages">← All messages</Link>
      </p>
      <h1>
        Message <code>{id}</code>
      </h1>
      <ProblemMessage error={detail.error} />
      {data && (
        <>
          <dl className="facts">
            <dt>Status</dt>
            <dd data-testid="message-status">
              <StatusBadge status={data.message.status} />
              {!FINAL.has(data.message.status) && <span className="muted"> (updating live)</span>}
            </dd>
            <dt>Requested channel</dt>
            <dd>{data.message.channel}</dd>
            <dt>Channel used</dt>
            <dd>{data.message.channel_used ?? '—'}</dd>
            <dt>Recipient</dt>
            <dd>{data.message.recipient}</dd>
            <dt>Cost units</dt>
            <dd>{data.message.cost_units}</dd>
            {data.message.error && (
              <>
                <dt>Error</dt>
                <dd>
                  <code>{data.message.error.code}</code> {data.message.error.message}
                </dd>
              </>
            )}
          </dl>
          <h2>Timeline</h2>
          <ol className="timeline" aria-label="State changes">
            {data.transitions.map((t) => (
              <li key={t.sequence} data-status={t.status}>
                <StatusBadge status={t.status} /> <Time value={t.at} />
                {t.channel && <> on {t.channel}</>}
                {t.carrier_status_code && <> (carrier {t.carrier_status_code})</>}
                {t.error_code && (
                  <>
                    {' '}
                    <code>{t.error_code}</code>
                  </>
                )}
              </li>
            ))}
          </ol>
          <h2>Attempts per channel</h2>
          {data.message.attempts.length === 0 ? (
            <p className="muted">No attempt yet.</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">Step</th>
                  <th scope="col">Channel</th>
                  <th scope="col">Status</th>
                  <th scope="col">Error</th>
                </tr>
              </thead>
              <tbody>
                {data.message.attempts.map((a, i) => (
                  <tr key={i}>
                    <td>{i === 0 ? 'first try' : `fallback ${i}`}</td>
                    <td>{a.channel}</td>
                    <td>
                      <StatusBadge status={a.status} />
                    </td>
                    <td>{a.error_code ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <h2>Events and their deliveries</h2>
          {data.events.length === 0 ? (
            <p className="muted">No event yet.</p>
          ) : (
            <ul className="events">
              {data.events.map((e) => (
                <li key={e.id}>
                  <code>{e.type}</code> <Time value={e.created_at} />
                  {e.deliveries.length === 0 ? (
                    <span className="muted"> — no endpoint subscribed</span>
                  ) : (
                    <ul>
                      {e.deliveries.map((d) => (
                        <li key={d.id}>
                          {d.url}: <StatusBadge status={d.status} /> after {d.attempts} attempt(s)
                          {d.last_status_code !== null && <> (HTTP {d.last_status_code})</>}
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </>
  );
}
