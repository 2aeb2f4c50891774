import { useState, type FormEvent } from 'react';
import { api, formText, type Page } from '../api';
import { ListTable } from '../components/ListTable';
import { EmptyState, ProblemMessage, ShownOnce, StatusBadge, Time } from '../components/ui';
import { useCanEdit } from '../session';
import { useAction } from '../useAction';
import { useLoad } from '../useLoad';

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  created_at: string;
}
interface DeliveryAttempt {
  id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_excerpt: string | null;
  delivery_status: string;
  created_at: string;
}

const EVENT_TYPES = ['message.sent', 'message.delivered', 'message.read', 'message.failed', 'message.fallback', 'message.inbound'];

export function WebhooksPage() {
  const canEdit = useCanEdit();
  const endpoints = useLoad(() => api<Page<Endpoint>>('GET', '/v1/webhooks?limit=100'), []);
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const { error, setError, act } = useAction(endpoints.reload);
  const [open, setOpen] = useState<string | null>(null);

  function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const description = formText(form, 'description').trim();
    void act(async () => {
      const created = await api<Endpoint & { secret: string }>('POST', '/v1/webhooks', {
        url: formText(form, 'url').trim(),
        events: form.getAll('events'),
        ...(description ? { description } : {}),
      });
      setSecret({ label: `Signing secret of ${created.url}.`, value: created.secret });
      setOpen(created.id);
    });
  }

  return (
    <>
      <h1>Webhooks</h1>
      <ProblemMessage error={error ?? endpoints.error} />
      {secret && <ShownOnce label={secret.label} value={secret.value} testId="webhook-secret" />}
      {canEdit && (
        <section aria-labelledby="new-endpoint">
          <h2 id="new-endpoint">Add an endpoint</h2>
          <form onSubmit={create} className="card">
            <label>
              URL
              <input name="url" type="url" required placeholder="https://example.com/webhooks/switchboard" />
            </label>
            <label>
              Description
              <input name="description" maxLength={200} />
            </label>
            <fieldset>
              <legend>Events</legend>
              {EVENT_TYPES.map((t) => (
                <label key={t} className="inline">
                  <input type="checkbox" name="events" value={t} defaultChecked /> <code>{t}</code>
                </label>
              ))}
            </fieldset>
            <button type="submit">Add endpoint</button>
          </form>
        </section>
      )}
      <section aria-labelledby="endpoint-list">
        <h2 id="endpoint-list">Endpoints</h2>
        {endpoints.data?.data.length === 0 && (
          <EmptyState title="No webhook endpoints yet">
            <p>Add an endpoint to receive message events, signed with the Standard Webhooks scheme.</p>
          </EmptyState>
        )}
        {endpoints.data?.data.map((e) => (
          <article key={e.id} className="card endpoint" aria-label={`Endpoint ${e.url}`}>
            <h3>
              <code>{e.url}</code> {e.enabled ? <StatusBadge status="enabled" /> : <StatusBadge status="disabled" />}
            </h3>
            {e.disabled_reason && <p className="muted">Disabled: {e.disabled_reason}</p>}
            <p>
              Events: {e.events.join(', ')} · created <Time value={e.created_at} />
            </p>
            <div className="actions">
              <button type="button" aria-expanded={open === e.id} onClick={() => setOpen(open === e.id ? null : e.id)}>
                {open === e.id ? 'Hide delivery log' : 'Show delivery log'}
              </button>
              {canEdit && (
                <>
                  <button
                    type="button"
                    onClick={() =>
                      void act(async () => {
                        const rotated = await api<{ secret: string }>('POST', `/v1/webhooks/${e.id}/rotate-secret`);
                        setSecret({ label: `New signing secret of ${e.url} (the old one keeps signing for 24 h).`, value: rotated.secret });
                      })
                    }
                  >
                    Rotate secret
                  </button>
                  <button type="button" onClick={() => void act(() => api('POST', `/webhooks/${e.id}/${e.enabled ? 'disable' : 'enable'}`))}>
                    {e.enabled ? 'Disable' : 'Enable'}
                  </button>
                  <button
                    type="button"
                    onClick={() =>
                      void act(async () => {
                        await api('POST', `/webhooks/${e.id}/test`);
                        setOpen(e.id);
                      })
                    }
                  >
                    Send test event
                  </button>
                  <button type="button" className="danger" onClick={() => void act(() => api('DELETE', `/v1/webhooks/${e.id}`))}>
                    Delete
                  </button>
                </>
              )}
            </div>
            {open === e.id && <DeliveryLog endpointId={e.id} canEdit={canEdit} onError={setError} />}
          </article>
        ))}
      </section>
    </>
  );
}

function DeliveryLog({ endpointId, canEdit, onError }: { endpointId: string; canEdit: boolean; onError: (e: unknown) => void }) {
  const log = useLoad(() => api<{ data: DeliveryAttempt[] }>('GET', `/webhooks/${endpointId}/attempts`), [endpointId], 3000);
  if (!log.data) return <p className="muted">Loading the delivery log…</p>;
  return (
    <ListTable
      label="Delivery log"
      headers={['Event', 'Attempt', 'Status', 'Latency', 'Response excerpt', 'At', 'Action']}
      rows={log.data.data}
      empty={<p className="muted">No delivery yet: send a test event or a message to see one here.</p>}
    >
      {(a) => (
        <tr key={a.id} data-event-id={a.event_id}>
          <td>
            <code>{a.event_type}</code>
          </td>
          <td>{a.attempt}</td>
          <td>
            <StatusBadge status={a.delivery_status} /> {a.status_code !== null ? `HTTP ${a.status_code}` : ''}
          </td>
          <td>{a.latency_ms} ms</td>
          <td className="excerpt">{a.error ?? a.response_excerpt ?? '—'}</td>
          <td>
            <Time value={a.created_at} />
          </td>
          <td>
            {canEdit && (
              <button
                type="button"
                onClick={() => void api('POST', `/v1/events/${a.event_id}/redeliver`).then(log.reload, onError)}
                aria-label={`Redeliver ${a.event_type} event ${a.event_id}`}
              >
                Redeliver
              </button>
            )}
          </td>
        </tr>
      )}
    </ListTable>
  );
}
