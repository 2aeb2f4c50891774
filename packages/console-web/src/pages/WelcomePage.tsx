import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../api';
import { ProblemMessage } from '../components/ui';
import type { ConsoleUser } from '../session';

/** The one-time sign-in link lands here: the token is in the fragment, so it never reaches a server log. */
export function WelcomePage({ onSignedIn }: { onSignedIn: (a: { user: ConsoleUser; csrf_token: string }) => void }) {
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>(null);
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    if (form.get('password') !== form.get('confirm')) {
      setError(new Error('The two passwords differ.'));
      return;
    }
    try {
      const answer = await api<{ user: ConsoleUser; csrf_token: string }>('POST', '/session/redeem', { token, password: form.get('password') });
      history.replaceState(null, '', window.location.pathname);
      onSignedIn(answer);
      void navigate('/keys', { replace: true });
    } catch (e) {
      setError(e);
    }
  }
  return (
    <main id="main" className="auth">
      <h1>Welcome to the Switchboard console</h1>
      <form onSubmit={(event) => void submit(event)} className="card">
        <p>Choose a password (at least 10 characters). This link works once.</p>
        <label>
          New password
          <input name="password" type="password" autoComplete="new-password" minLength={10} required />
        </label>
        <label>
          Repeat the password
          <input name="confirm" type="password" autoComplete="new-password" minLength={10} required />
        </label>
        <ProblemMessage error={error} />
        <button type="submit">Set password and sign in</button>
      </form>
    </main>
  );
}
