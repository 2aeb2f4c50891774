import { useCallback, useEffect, useState } from 'react';

/** Loads once and on `reload()`; optionally every `pollMs` while the page is open (live views). */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[], pollMs?: number) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  // The caller lists what `load` depends on, as with useEffect.
  const run = useCallback(load, deps);
  const reload = useCallback(() => {
    run().then(
      (d) => {
        setData(d);
        setError(null);
      },
      (e) => setError(e),
    );
  }, [run]);
  useEffect(() => {
    reload();
    if (!pollMs) return undefined;
    const timer = setInterval(reload, pollMs);
    return () => clearInterval(timer);
  }, [reload, pollMs]);
  return { data, error, reload };
}
