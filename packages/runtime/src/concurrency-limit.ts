/** Runs `work` once a slot is free; the same function carries `setLimit`. */
export interface ConcurrencyLimit {
  <T>(work: () => Promise<T>): Promise<T>;
  /** Changes how many run at once from now on; running work is not touched, waiting work starts if the limit grew. At least 1. */
  setLimit(limit: number): void;
}

/**
 * At most `limit` pieces of work run at once; the others wait their turn, in order. The gateway admits
 * batches through one (docs/performance/batch.md#batch-accept-benchbatchmjs); the dispatcher bounds the sends of
 * its chunks in flight with another (docs/messages.md#chunk-lifecycle); a worker serving several queue
 * partitions shares one between their BullMQ workers (docs/storage-layout.md#redis-keys-and-cluster).
 */
export function createConcurrencyLimit(limit: number): ConcurrencyLimit {
  let running = 0;
  let max = Math.max(1, limit);
  const waiting: Array<() => void> = [];

  function release(): void {
    const next = running <= max ? waiting.shift() : undefined;
    if (next) next();
    else running -= 1;
  }

  async function admitted<T>(work: () => Promise<T>): Promise<T> {
    if (running < max) running += 1;
    // The slot is handed over by release(), so `running` stays counted while it passes.
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      release();
    }
  }

  admitted.setLimit = (next: number) => {
    max = Math.max(1, next);
    while (running < max && waiting.length > 0) {
      running += 1;
      waiting.shift()?.();
    }
  };
  return admitted;
}
