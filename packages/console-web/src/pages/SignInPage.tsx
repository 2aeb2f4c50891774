import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { ProblemMessage } from '../components/ui';
import type { ConsoleUser } from '../session';

export function SignInPage({ onSignedIn }: { onSignedIn: (a: { user: ConsoleUser; csrf_token: string }) => void }) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await api('POST', '/session', { email: form.get('email'), password: form.get('password') }));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }
  return (
    <main id="main" className="auth">
      <h1>Sign in to the Switchboard console</h1>
      <form onSubmit={(event) => void submit(event)} className="card">
        <label>
          Email
          <input name="email" type="email" autoComplete="username" required />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <ProblemMessage error={error} />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <p className="muted">
        No account yet? An owner runs <code>npx switchboard users create --account &lt;name&gt; --email &lt;you&gt; --role developer</code> and sends you the
        one-time link it prints.
      </p>
    </main>
  );
}
