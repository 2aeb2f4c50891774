import { createContext, useContext } from 'react';

export interface ConsoleUser {
  id: string;
  email: string;
  role: 'owner' | 'developer' | 'viewer';
  account_id: string;
}

export interface SessionState {
  user: ConsoleUser;
  signOut: () => Promise<void>;
}

export const SessionContext = createContext<SessionState | null>(null);

export function useSession(): SessionState {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}

/** Viewers see every page but no control that changes anything; the server refuses those writes anyway. */
export function useCanEdit(): boolean {
  return useSession().user.role !== 'viewer';
}
