/**
 * Gathers the jobs that concurrent requests enqueue in the same turn of the event loop and sends them
 * to Redis in one `addBulk` (docs/performance/accept.md#cost-per-request-of-one-gateway-process). Each caller's promise settles only
 * once the call that carried its job settled, so a 202 still means "the job is in Redis"; a failed call
 * rejects exactly the callers whose jobs it carried, each with the same error.
 */
export interface EnqueueCoalescerOptions<T> {
  addOne: (item: T) => Promise<unknown>;
  addMany: (items: T[]) => Promise<unknown>;
  /** A batch is sent at once when it reaches this size, without waiting for the turn to end. */
  maxItems: number;
}

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export function createEnqueueCoalescer<T>({ addOne, addMany, maxItems }: EnqueueCoalescerOptions<T>): (item: T) => Promise<void> {
  let waiting: Waiting<T>[] = [];
  let scheduled = false;

  function flush(): void {
    scheduled = false;
    const batch = waiting;
    waiting = [];
    if (batch.length === 0) return;
    // One job alone goes by a plain add: addBulk wraps its jobs in MULTI/EXEC, which one job does not need.
    const sent = batch.length === 1 ? addOne(batch[0].item) : addMany(batch.map((w) => w.item));
    sent.then(
      () => batch.forEach((w) => w.resolve()),
      (error: unknown) => batch.forEach((w) => w.reject(error)),
    );
  }

  return (item) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (waiting.length >= maxItems) return flush();
      if (!scheduled) {
        scheduled = true;
        // setImmediate runs after the I/O callbacks of this turn: the requests that arrived together.
        setImmediate(flush);
      }
    });
}
