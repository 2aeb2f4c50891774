import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, formText, query, type Page } from '../api';
import { ListTable } from '../components/ListTable';
import { Pager } from '../components/Pager';
import { EmptyState, ProblemMessage, StatusBadge, Time } from '../components/ui';
import { useCursorPages } from '../useCursorPages';
import { useLoad } from '../useLoad';

export interface MessageSummary {
  id: string;
  status: string;
  channel: string;
  channel_used: string | null;
  recipient: string;
  created_at: string;
  cost_units: number;
}

const STATUSES = ['queued', 'scheduled', 'sending', 'sent', 'delivered', 'read', 'failed', 'undelivered'];
const CHANNELS = ['auto', 'chat', 'sms', 'rcs'];

/** `datetime-local` gives local wall time without a zone; the API wants an instant. */
const instant = (local: string) => (local ? new Date(local).toISOString() : undefined);

export function MessagesPage() {
  const [filters, setFilters] = useState<Record<string, string | undefined>>({});
  const pages = useCursorPages();
  const cursor = pages.cursor;
  const page = useLoad(() => api<Page<MessageSummary>>('GET', `/messages${query({ ...filters, cursor, limit: '20' })}`), [filters, cursor], 5000);

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    pages.reset();
    setFilters({
      status: formText(form, 'status') || undefined,
      channel: formText(form, 'channel') || undefined,
      recipient: formText(form, 'recipient').trim() || undefined,
      from: instant(formText(form, 'from')),
      to: instant(formText(form, 'to')),
    });
  }

  const filtered = Object.values(filters).some(Boolean);
  return (
    <>
      <h1>Messages</h1>
      <form onSubmit={apply} className="filters" aria-label="Filter messages">
        <label>
          Status
          <select name="status" defaultValue="">
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          Channel
          <select name="channel" defaultValue="">
            <option value="">any</option>
            {CHANNELS.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        <label>
          Recipient
          <input name="recipient" placeholder="+447911123400" />
        </label>
        <label>
          From
          <input name="from" type="datetime-local" />
        </label>
        <label>
          To
          <input name="to" type="datetime-local" />
        </label>
        <button type="submit">Apply filters</button>
      </form>
      <ProblemMessage error={page.error} />
      <ListTable
        headers={['Message', 'Status', 'Channel', 'Recipient', 'Created', 'Cost units']}
        rows={page.data?.data}
        empty={filtered ? <EmptyState title="No message matches these filters" /> : <FirstMessageHint />}
      >
        {(m) => (
          <tr key={m.id}>
            <td>
              <Link to={`/messages/${m.id}`}>
                <code>{m.id}</code>
              </Link>
            </td>
            <td>
              <StatusBadge status={m.status} />
            </td>
            <td>{m.channel_used ?? m.channel}</td>
            <td>{m.recipient}</td>
            <td>
              <Time value={m.created_at} />
            </td>
            <td>{m.cost_units}</td>
          </tr>
        )}
      </ListTable>
      <Pager pages={pages} next={page.data?.next_cursor} />
    </>
  );
}

function FirstMessageHint() {
  const keys = useLoad(() => api<{ data: Array<{ display_prefix: string; mode: string; revoked_at: string | null }> }>('GET', '/keys'), []);
  const testKey = keys.data?.data.find((k) => k.mode === 'test' && !k.revoked_at);
  const origin = window.location.origin;
  return (
    <EmptyState title="No messages yet">
      <p>
        Send your first message with a test key
        {testKey ? (
          <>
            {' '}
            (yours starts with <code>{testKey.display_prefix}</code>)
          </>
        ) : (
          <>: create one in Developer settings</>
        )}
        . Recipients ending in 00 are delivered and then read by the sandbox.
      </p>
      <pre className="code" tabIndex={0} aria-label="curl command for a first message">
        {`curl -s ${origin}/v1/messages \\
  -H "Authorization: Bearer $SWITCHBOARD_TEST_KEY" \\
  -H 'Content-Type: application/json' \\
  -d '{"channel":"sms","recipient":"+447911123400","content":{"text":"Hello"}}'`}
      </pre>
    </EmptyState>
  );
}
