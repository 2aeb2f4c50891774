import { useCallback, useEffect, useRef, useState } from 'react';
import { NavLink, Navigate, Route, Routes, useLocation } from 'react-router';
import { api, setCsrfToken, whenSignedOut } from './api';
import { SessionContext, type ConsoleUser } from './session';
import { SignInPage } from './pages/SignInPage';
import { WelcomePage } from './pages/WelcomePage';
import { KeysPage } from './pages/KeysPage';
import { MessagesPage } from './pages/MessagesPage';
import { MessagePage } from './pages/MessagePage';
import { WebhooksPage } from './pages/WebhooksPage';
import { TemplatesPage } from './pages/TemplatesPage';
import { InboundPage } from './pages/InboundPage';
import { NumbersPage } from './pages/NumbersPage';
import { UsagePage } from './pages/UsagePage';
import { CallsPage } from './pages/CallsPage';
import { CallPage } from './pages/CallPage';
import { AgentsPage } from './pages/AgentsPage';

interface SessionAnswer {
  user: ConsoleUser;
  csrf_token: string;
}

/** `GET /console/api/session`: 200 either way, so the sign-in page loads without a failed request. */
type SessionCheck = ({ signed_in: true } & SessionAnswer) | { signed_in: false };

const NAV = [
  ['/keys', 'Developer settings'],
  ['/messages', 'Messages'],
  ['/webhooks', 'Webhooks'],
  ['/templates', 'Templates'],
  ['/inbound', 'Inbound'],
  ['/calls', 'Calls'],
  ['/agents', 'Agents'],
  ['/numbers', 'Numbers'],
  ['/usage', 'Usage'],
] as const;

export function App() {
  const [user, setUser] = useState<ConsoleUser | null | undefined>(undefined);
  const location = useLocation();
  const firstPath = useRef(location.pathname);

  // After a client-side navigation, keyboard and screen-reader users start at the new page's content, as after a page load.
  useEffect(() => {
    if (location.pathname === firstPath.current) return;
    firstPath.current = '';
    document.getElementById('main')?.focus();
  }, [location.pathname]);

  const signedIn = useCallback((answer: SessionAnswer) => {
    setCsrfToken(answer.csrf_token);
    setUser(answer.user);
  }, []);

  useEffect(() => {
    whenSignedOut(() => setUser(null));
    api<SessionCheck>('GET', '/session').then(
      (answer) => (answer.signed_in ? signedIn(answer) : setUser(null)),
      () => setUser(null),
    );
  }, [signedIn]);

  const signOut = useCallback(async () => {
    await api('DELETE', '/session').catch(() => undefined);
    setCsrfToken('');
    setUser(null);
  }, []);

  if (location.pathname === '/welcome') return <WelcomePage onSignedIn={signedIn} />;
  if (user === undefined) return <p className="loading">Loading…</p>;
  if (user === null) return <SignInPage onSignedIn={signedIn} />;

  return (
    <SessionContext.Provider value={{ user, signOut }}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Switchboard console</span>
        <span className="who">
          {user.email} <span className="badge">{user.role}</span>
        </span>
        <button type="button" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <div className="layout">
        <nav aria-label="Console sections">
          <ul>
            {NAV.map(([to, label]) => (
              <li key={to}>
                <NavLink to={to}>{label}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          <Routes>
            <Route path="/" element={<Navigate to="/keys" replace />} />
            <Route path="/keys" element={<KeysPage />} />
            <Route path="/messages" element={<MessagesPage />} />
            <Route path="/messages/:id" element={<MessagePage />} />
            <Route path="/webhooks" element={<WebhooksPage />} />
            <Route path="/templates" element={<TemplatesPage />} />
            <Route path="/inbound" element={<InboundPage />} />
            <Route path="/calls" element={<CallsPage />} />
            <Route path="/calls/:id" element={<CallPage />} />
            <Route path="/agents" element={<AgentsPage />} />
            <Route path="/numbers" element={<NumbersPage />} />
            <Route path="/usage" element={<UsagePage />} />
            <Route path="*" element={<h1>Not found</h1>} />
          </Routes>
        </main>
      </div>
    </SessionContext.Provider>
  );
}
