export interface LoadingCacheOptions<V> {
  load: (key: string) => Promise<V>;
  /** How long a loaded value is served; 0 disables caching. */
  ttlMs: number;
  /** @defaultValue 10000: the oldest entry is dropped beyond this, so hostile keys cannot grow it without bound. */
  maxEntries?: number;
  clock?: () => number;
}

/**
 * A small read-through cache with a TTL. Concurrent misses for one key share a single load, so a burst
 * on a cold key costs one query; a failed load is not cached.
 */
export function createLoadingCache<V>({ load, ttlMs, maxEntries = 10_000, clock = Date.now }: LoadingCacheOptions<V>): (key: string) => Promise<V> {
  const entries = new Map<string, { value: V; expiresAt: number }>();
  const pending = new Map<string, Promise<V>>();
  return (key) => {
    const cached = entries.get(key);
    if (cached && cached.expiresAt > clock()) return Promise.resolve(cached.value);
    const inFlight = pending.get(key);
    if (inFlight) return inFlight;
    const loading = load(key)
      .then((value) => {
        if (ttlMs > 0) {
          entries.delete(key);
          if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
          entries.set(key, { value, expiresAt: clock() + ttlMs });
        }
        return value;
      })
      .finally(() => pending.delete(key));
    pending.set(key, loading);
    return loading;
  };
}
