import type { BreakerRecord, UpstreamBreakerStore } from '@switchboard/shared-state';
import { createBatcher } from '@switchboard/runtime';

/**
 * The shared breaker store, with the Redis work of concurrent sends gathered (docs/performance/dispatch.md#dispatch):
 * sends asking for an upstream's state while a read of it is under way share that read, and outcomes
 * arriving while one upstream's outcomes are being written go together in its next write (one LPUSH of
 * several values). Nothing is cached beyond a read in flight, so a send sees a state at most one Redis round
 * trip old, as before; each caller gets the state including its own outcome, as with one call at a time.
 */
export function coalesceBreakerStore(store: UpstreamBreakerStore): UpstreamBreakerStore {
  const reading = new Map<string, Promise<BreakerRecord>>();
  const recordTogether = createBatcher<boolean, BreakerRecord, string>({
    runMany: async (oks, name) => {
      const record = await store.recordMany(name, oks);
      return oks.map(() => record);
    },
    flush: 'after-previous',
    maxSize: 256,
    onGroupFailure: 'fail-group',
  });

  return {
    ...store,
    read(name) {
      const shared = reading.get(name);
      if (shared) return shared;
      const read = store.read(name).finally(() => reading.delete(name));
      reading.set(name, read);
      return read;
    },
    record: (name, ok) => recordTogether(ok, name),
  };
}
