/**
 * At most `limit` pieces of work run at once; the others wait their turn, in order. The gateway admits
 * batches through one (docs/performance/batch.md#batch-accept-benchbatchmjs); the dispatcher bounds the sends of
 * its chunks in flight with another (docs/messages.md#chunk-lifecycle).
 */
export function createConcurrencyLimit(limit: number) {
  let running = 0;
  const waiting: Array<() => void> = [];

  function release(): void {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }

  return async function admitted<T>(work: () => Promise<T>): Promise<T> {
    if (running < limit) running += 1;
    // The slot is handed over by release(), so `running` stays counted while it passes.
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      release();
    }
  };
}
