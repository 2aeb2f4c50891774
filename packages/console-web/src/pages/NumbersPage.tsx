import type { FormEvent } from 'react';
import { api, formText } from '../api';
import { ListTable } from '../components/ListTable';
import { EmptyState, ProblemMessage, Time } from '../components/ui';
import { useCanEdit } from '../session';
import { useAction } from '../useAction';
import { useLoad } from '../useLoad';

interface PhoneNumber {
  id: string;
  e164: string;
  channels: string[];
  created_at: string;
}

const CHANNELS = ['chat', 'sms', 'rcs', 'voice'];

export function NumbersPage() {
  const canEdit = useCanEdit();
  const list = useLoad(() => api<{ data: PhoneNumber[] }>('GET', '/numbers'), []);
  const { error, act } = useAction(list.reload);

  function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void act(() => api('POST', '/numbers', { e164: formText(form, 'e164').trim(), channels: form.getAll('channels') }));
  }

  return (
    <>
      <h1>Numbers</h1>
      <p>Your senders. A number belongs to one account only; the first number of a channel is its default sender.</p>
      <ProblemMessage error={error ?? list.error} />
      {canEdit && (
        <form onSubmit={add} className="card" aria-label="Add a number">
          <label>
            Number (E.164)
            <input name="e164" required placeholder="+14155550100" />
          </label>
          <fieldset>
            <legend>Channels</legend>
            {CHANNELS.map((c) => (
              <label key={c} className="inline">
                <input type="checkbox" name="channels" value={c} defaultChecked={c !== 'voice'} /> {c}
              </label>
            ))}
          </fieldset>
          <button type="submit">Add number</button>
        </form>
      )}
      <ListTable
        headers={['Number', 'Channels', 'Added', 'Action']}
        rows={list.data?.data}
        empty={
          <EmptyState title="No numbers yet">
            <p>Test keys send from the shared sandbox sender until you add a number.</p>
          </EmptyState>
        }
      >
        {(n) => (
          <tr key={n.id}>
            <td>{n.e164}</td>
            <td>{n.channels.join(', ')}</td>
            <td>
              <Time value={n.created_at} />
            </td>
            <td>
              {canEdit && (
                <button type="button" className="danger" onClick={() => void act(() => api('DELETE', `/numbers/${n.id}`))} aria-label={`Remove ${n.e164}`}>
                  Remove
                </button>
              )}
            </td>
          </tr>
        )}
      </ListTable>
    </>
  );
}
