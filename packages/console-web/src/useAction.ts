import { useState } from 'react';

/**
 * Runs a change (create, delete, enable…) and then reloads the list it touched; a failure is kept in `error`
 * for the page's ProblemMessage instead of being thrown, so the page stays usable.
 */
export function useAction(reload: () => void) {
  const [error, setError] = useState<unknown>(null);
  async function act(work: () => Promise<unknown>) {
    setError(null);
    try {
      await work();
      reload();
    } catch (e) {
      setError(e);
    }
  }
  return { error, setError, act };
}
