import { useState, type ReactNode } from 'react';
import { ApiProblem } from '../api';

export function ProblemMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const problem = error instanceof ApiProblem ? error.problem : null;
  return (
    <div role="alert" className="alert">
      <strong>{problem ? problem.detail : String((error as Error).message ?? error)}</strong>
      {problem?.errors && (
        <ul>
          {problem.errors.map((e) => (
            <li key={e.field + e.message}>
              <code>{e.field}</code> {e.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section className="empty" aria-label={title}>
      <h3>{title}</h3>
      {children}
    </section>
  );
}

/** A value shown once (a new key or signing secret), with a copy button. */
export function ShownOnce({ label, value, testId }: { label: string; value: string; testId: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="shown-once" role="status">
      <p>
        <strong>{label}</strong> This is the only time it is shown: copy it now.
      </p>
      <code data-testid={testId} className="secret">
        {value}
      </code>
      <button
        type="button"
        onClick={() => {
          void navigator.clipboard?.writeText(value).then(
            () => setCopied(true),
            () => setCopied(false),
          );
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}

export function Time({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="muted">—</span>;
  return <time dateTime={value}>{new Date(value).toLocaleString()}</time>;
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status}`}>{status}</span>;
}
