import { useState } from 'react';
import { Link } from 'react-router';
import { api, query, type Page } from '../api';
import { EmptyState, ProblemMessage, StatusBadge, Time } from '../components/ui';
import { useLoad } from '../useLoad';
import type { Call } from '../voice/call';

/** The account's calls, newest first, polled while the page is open (docs/console.md#calls-and-agents). */
export function CallsPage() {
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const page = useLoad(() => api<Page<Call>>('GET', `/v1/voice/calls${query({ cursor, limit: '20' })}`), [cursor], 3000);
  return (
    <>
      <h1>Calls</h1>
      <ProblemMessage error={page.error} />
      {page.data?.data.length === 0 && !cursor && (
        <EmptyState title="No calls yet">
          <p>
            Place one with <code>POST /v1/voice/calls</code> from a number of this account that has the voice channel; it shows up here with its
            transcript and recording.
          </p>
        </EmptyState>
      )}
      {page.data && page.data.data.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">Call</th>
              <th scope="col">To</th>
              <th scope="col">From</th>
              <th scope="col">Status</th>
              <th scope="col">Duration</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {page.data.data.map((c) => (
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
            ))}
          </tbody>
        </table>
      )}
      <div className="pager">
        <button type="button" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
          Newer
        </button>
        <button type="button" disabled={!page.data?.next_cursor} onClick={() => page.data?.next_cursor && setCursors([...cursors, page.data.next_cursor])}>
          Older
        </button>
      </div>
    </>
  );
}
