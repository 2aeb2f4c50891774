import { api, type Page } from '../api';
import { ListTable } from '../components/ListTable';
import { EmptyState, ProblemMessage, Time } from '../components/ui';
import { useLoad } from '../useLoad';

interface Inbound {
  id: string;
  channel: string;
  from: string;
  to: string;
  type?: string;
  text?: string | null;
  received_at?: string;
  created_at?: string;
  [key: string]: unknown;
}
interface Window {
  sender: string;
  customer: string;
  last_inbound_at: string;
  closes_at: string;
}

export function InboundPage() {
  const inbound = useLoad(() => api<Page<Inbound>>('GET', '/v1/inbound?limit=50'), [], 5000);
  const windows = useLoad(() => api<{ data: Window[] }>('GET', '/customer-windows'), [], 5000);
  return (
    <>
      <h1>Inbound replies</h1>
      <ProblemMessage error={inbound.error ?? windows.error} />
      <section aria-labelledby="windows">
        <h2 id="windows">Open customer service windows</h2>
        <ListTable
          headers={['Customer', 'Your number', 'Last message', 'Closes']}
          rows={windows.data?.data}
          empty={
            <EmptyState title="No open window">
              <p>A window opens for 24 hours when a customer writes to one of your chat numbers; inside it you may send any message type.</p>
            </EmptyState>
          }
        >
          {(w) => (
            <tr key={w.sender + w.customer}>
              <td>{w.customer}</td>
              <td>{w.sender}</td>
              <td>
                <Time value={w.last_inbound_at} />
              </td>
              <td>
                <Time value={w.closes_at} />
              </td>
            </tr>
          )}
        </ListTable>
      </section>
      <section aria-labelledby="replies">
        <h2 id="replies">Replies</h2>
        <ListTable
          headers={['From', 'To', 'Channel', 'Content', 'Received']}
          rows={inbound.data?.data}
          empty={
            <EmptyState title="No replies yet">
              <p>
                Customer replies to your numbers appear here and as <code>message.inbound</code> webhook events.
              </p>
            </EmptyState>
          }
        >
          {(m) => (
            <tr key={m.id}>
              <td>{m.from}</td>
              <td>{m.to}</td>
              <td>{m.channel}</td>
              <td>{m.text ?? m.type ?? ''}</td>
              <td>
                <Time value={m.received_at ?? m.created_at} />
              </td>
            </tr>
          )}
        </ListTable>
      </section>
    </>
  );
}
