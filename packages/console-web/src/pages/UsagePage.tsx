import { api } from '../api';
import { ListTable } from '../components/ListTable';
import { EmptyState, ProblemMessage } from '../components/ui';
import { useLoad } from '../useLoad';

interface UsageRow {
  day: string;
  channel: string;
  status: string;
  messages: number;
  cost_units: number;
}

/** Calls per UTC day and final status; minutes round each answered call up, as carriers bill voice. */
interface CallUsageRow {
  day: string;
  status: string;
  calls: number;
  seconds: number;
  minutes: number;
}

const DAYS = 14;

function rangeOfDays(since: string, count: number): string[] {
  const start = Date.parse(since);
  return Array.from({ length: count }, (_, i) => new Date(start + i * 86_400_000).toISOString().slice(0, 10));
}

// Channels of messages, then outcomes of calls.
const SERIES_CLASS: Record<string, string> = {
  chat: 's1',
  sms: 's2',
  rcs: 's3',
  voice: 's4',
  completed: 's1',
  busy: 's2',
  'no-answer': 's3',
  failed: 's4',
  canceled: 's5',
};

/** A stacked bar per day; inline SVG, so the page loads nothing from elsewhere. */
function StackedBars({ title, days, series, value }: { title: string; days: string[]; series: Map<string, Map<string, number>>; value: string }) {
  const totals = days.map((d) => [...series.values()].reduce((sum, s) => sum + (s.get(d) ?? 0), 0));
  const max = Math.max(1, ...totals);
  const width = 40 * days.length + 40;
  const height = 180;
  return (
    <figure>
      <svg
        role="img"
        aria-label={`${title}: ${days.map((d, i) => `${d} ${totals[i]} ${value}`).join(', ')}`}
        viewBox={`0 0 ${width} ${height + 30}`}
        className="chart"
      >
        <title>{title}</title>
        {days.map((day, i) => {
          let y = height;
          return (
            <g key={day} transform={`translate(${30 + i * 40},0)`}>
              {[...series.entries()].map(([name, byDay]) => {
                const h = ((byDay.get(day) ?? 0) / max) * (height - 10);
                y -= h;
                return h > 0 ? <rect key={name} className={`bar ${SERIES_CLASS[name] ?? 's5'}`} x={0} y={y} width={28} height={h} /> : null;
              })}
              <text x={14} y={height + 16} textAnchor="middle" className="axis">
                {day.slice(5)}
              </text>
            </g>
          );
        })}
        <text x={4} y={12} className="axis">
          {max}
        </text>
      </svg>
      <figcaption>
        {title} ·{' '}
        {[...series.keys()].map((name) => (
          <span key={name} className="legend">
            <span className={`swatch ${SERIES_CLASS[name] ?? 's5'}`} aria-hidden="true" /> {name}{' '}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

export function UsagePage() {
  const usage = useLoad(() => api<{ since: string; data: UsageRow[]; calls: CallUsageRow[] }>('GET', `/usage?days=${DAYS}`), []);
  const rows = usage.data?.data ?? [];
  const calls = usage.data?.calls ?? [];
  // Every day of the range, empty ones too, so the bars keep one width and a quiet day shows as a gap.
  const days = usage.data ? rangeOfDays(usage.data.since, DAYS) : [];
  const byChannel = (metric: 'messages' | 'cost_units') => {
    const series = new Map<string, Map<string, number>>();
    for (const r of rows) {
      const s = series.get(r.channel) ?? new Map<string, number>();
      s.set(r.day, (s.get(r.day) ?? 0) + r[metric]);
      series.set(r.channel, s);
    }
    return series;
  };
  const callsByStatus = (metric: 'calls' | 'minutes') => {
    const series = new Map<string, Map<string, number>>();
    for (const r of calls) {
      const s = series.get(r.status) ?? new Map<string, number>();
      s.set(r.day, (s.get(r.day) ?? 0) + r[metric]);
      series.set(r.status, s);
    }
    return series;
  };
  return (
    <>
      <h1>Usage</h1>
      <ProblemMessage error={usage.error} />
      {usage.data && rows.length === 0 && calls.length === 0 && (
        <EmptyState title="No usage in the last 14 days">
          <p>Messages you send and calls you place appear here per day, with their channel or outcome.</p>
        </EmptyState>
      )}
      {rows.length > 0 && (
        <>
          <StackedBars title="Messages per day and channel" days={days} series={byChannel('messages')} value="messages" />
          <StackedBars title="Cost units per day and channel" days={days} series={byChannel('cost_units')} value="cost units" />
          <h2>By day, channel and status</h2>
          <ListTable headers={['Day', 'Channel', 'Status', 'Messages', 'Cost units']} rows={rows} empty={null}>
            {(r) => (
              <tr key={r.day + r.channel + r.status}>
                <td>{r.day}</td>
                <td>{r.channel}</td>
                <td>{r.status}</td>
                <td>{r.messages}</td>
                <td>{r.cost_units}</td>
              </tr>
            )}
          </ListTable>
        </>
      )}
      {calls.length > 0 && (
        <>
          <StackedBars title="Calls per day and outcome" days={days} series={callsByStatus('calls')} value="calls" />
          <StackedBars title="Call minutes per day and outcome" days={days} series={callsByStatus('minutes')} value="minutes" />
          <h2>Calls by day and outcome</h2>
          <ListTable headers={['Day', 'Outcome', 'Calls', 'Minutes']} rows={calls} empty={null}>
            {(r) => (
              <tr key={r.day + r.status}>
                <td>{r.day}</td>
                <td>{r.status}</td>
                <td>{r.calls}</td>
                <td>{r.minutes}</td>
              </tr>
            )}
          </ListTable>
        </>
      )}
    </>
  );
}
