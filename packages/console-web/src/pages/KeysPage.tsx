import { useState, type FormEvent } from 'react';
import { api, formText } from '../api';
import { ListTable } from '../components/ListTable';
import { EmptyState, ProblemMessage, ShownOnce, Time } from '../components/ui';
import { useCanEdit } from '../session';
import { useAction } from '../useAction';
import { useLoad } from '../useLoad';

interface KeyListing {
  id: string;
  display_prefix: string;
  mode: 'test' | 'live';
  scopes: string[];
  rate_limit_per_second: number | null;
  created_at: string;
  revoked_at: string | null;
}

const SCOPES = ['messages:write', 'messages:read', 'templates:write', 'webhooks:write', 'calls:write', 'calls:read', 'agents:write'];

export function KeysPage() {
  const canEdit = useCanEdit();
  const keys = useLoad(() => api<{ data: KeyListing[] }>('GET', '/keys'), []);
  const [created, setCreated] = useState<{ key: string } | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const { error, setError, act } = useAction(keys.reload);

  function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const rate = formText(form, 'rate').trim();
    void act(async () =>
      setCreated(
        await api('POST', '/keys', {
          mode: form.get('mode'),
          scopes: form.getAll('scopes'),
          ...(rate ? { rate_limit_per_second: Number(rate) } : {}),
        }),
      ),
    );
  }

  async function showSecret() {
    try {
      setSecret((await api<{ secret: string }>('GET', '/v1/account/webhook-secret')).secret);
    } catch (e) {
      setError(e);
    }
  }

  return (
    <>
      <h1>Developer settings</h1>
      <ProblemMessage error={error ?? keys.error} />
      {canEdit && (
        <section aria-labelledby="new-key">
          <h2 id="new-key">Create an API key</h2>
          <form onSubmit={create} className="card">
            <fieldset>
              <legend>Mode</legend>
              <label className="inline">
                <input type="radio" name="mode" value="test" defaultChecked /> Test (sandbox, carrier simulator)
              </label>
              <label className="inline">
                <input type="radio" name="mode" value="live" /> Live
              </label>
            </fieldset>
            <fieldset>
              <legend>Scopes</legend>
              <label className="inline">
                <input type="checkbox" name="scopes" value="*" /> All scopes (<code>*</code>)
              </label>
              {SCOPES.map((s) => (
                <label key={s} className="inline">
                  <input type="checkbox" name="scopes" value={s} defaultChecked={s.startsWith('messages')} /> <code>{s}</code>
                </label>
              ))}
            </fieldset>
            <label>
              Rate limit (requests per second, empty for the deployment default)
              <input name="rate" type="number" min={1} max={100000} inputMode="numeric" />
            </label>
            <button type="submit">Create key</button>
          </form>
          {created && <ShownOnce label="Your new API key." value={created.key} testId="new-key" />}
        </section>
      )}
      <section aria-labelledby="key-list">
        <h2 id="key-list">API keys</h2>
        <ListTable
          headers={['Key', 'Mode', 'Scopes', 'Rate limit', 'Created', 'State']}
          rows={keys.data?.data}
          empty={
            <EmptyState title="No API keys yet">
              <p>Create a test key above, then send your first message with it.</p>
            </EmptyState>
          }
        >
          {(k) => (
            <tr key={k.id} data-key-id={k.id}>
              <td>
                <code>{k.display_prefix}…</code>
              </td>
              <td>{k.mode}</td>
              <td>{k.scopes.join(', ')}</td>
              <td>{k.rate_limit_per_second ?? 'default'}</td>
              <td>
                <Time value={k.created_at} />
              </td>
              <td>
                {k.revoked_at ? (
                  <>
                    revoked <Time value={k.revoked_at} />
                  </>
                ) : canEdit ? (
                  <button
                    type="button"
                    className="danger"
                    onClick={() => void act(() => api('POST', `/keys/${k.id}/revoke`))}
                    aria-label={`Revoke key ${k.display_prefix}`}
                  >
                    Revoke
                  </button>
                ) : (
                  'active'
                )}
              </td>
            </tr>
          )}
        </ListTable>
      </section>
      <section aria-labelledby="callback-secret">
        <h2 id="callback-secret">Callback secret</h2>
        <p>
          Signs deliveries to a message's own <code>callback_url</code>. Verify them with it.
        </p>
        {canEdit ? (
          secret ? (
            <code className="secret" data-testid="callback-secret">
              {secret}
            </code>
          ) : (
            <button type="button" onClick={() => void showSecret()}>
              Show callback secret
            </button>
          )
        ) : (
          <p className="muted">Owners and developers can see it.</p>
        )}
      </section>
    </>
  );
}
