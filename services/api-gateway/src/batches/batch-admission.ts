/**
 * At most `limit` batches are checked, priced and enqueued at once; the others wait their turn, in
 * order. The gateway is one CPU-bound thread, so running four 1,000-item batches side by side is not
 * faster than one after the other: it only holds four sets of jobs, BullMQ job objects and answers in
 * memory at the same time. Measured with one at a time: the same throughput, a lower peak RSS
 * (docs/performance/batch.md#batch-accept-benchbatchmjs).
 */
export function createBatchAdmission(limit: number) {
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
