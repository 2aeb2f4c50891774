import { Link } from 'react-router';
import { api, query, type Page } from '../api';
import { ListTable } from '../components/ListTable';
import { Pager } from '../components/Pager';
import { EmptyState, ProblemMessage, StatusBadge, Time } from '../components/ui';
import { useCursorPages } from '../useCursorPages';
import { useLoad } from '../useLoad';
import type { Call } from '../voice/call';

/** The account's calls, newest first, polled while the page is open (docs/console.md#calls-and-agents). */
export function CallsPage() {
  const pages = useCursorPages();
  const cursor = pages.cursor;
  const page = useLoad(() => api<Page<Call>>('GET', `/v1/voice/calls${query({ cursor, limit: '20' })}`), [cursor], 3000);
  return (
    <>
      <h1>Calls</h1>
      <ProblemMessage error={page.error} />
      <ListTable
        headers={['Call', 'To', 'From', 'Status', 'Duration', 'Created']}
        rows={page.data?.data}
        empty={
          !cursor && (
            <EmptyState title="No calls yet">
              <p>
                Place one with <code>POST /v1/voice/calls</code> from a number of this account that has the voice channel; it shows up here with its transcript
                and recording.
              </p>
            </EmptyState>
          )
        }
      >
        {(c) => (
          <tr key={c.call_id} data-call={c.call_id}>
            <td>
              <Link to={`/calls/${c.call_id}`}>
                <code>{c.call_id}</code>
              </Link>
            </td>
            <td>{c.to}</td>
            <td>{c.from}</td>
            <td>
              <StatusBadge status={c.status} />
            </td>
            <td>{c.duration_seconds === null ? <span className="muted">—</span> : `${c.duration_seconds} s`}</td>
            <td>
              <Time value={c.created_at} />
            </td>
          </tr>
        )}
      </ListTable>
      <Pager pages={pages} next={page.data?.next_cursor} />
    </>
  );
}
