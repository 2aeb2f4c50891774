/**
 * Store calls made in the same turn of the event loop go to the store as one statement. Concurrent jobs
 * each need one row, and on a small machine each round trip (a syscall, a wake-up of a PostgreSQL
 * backend) costs more than the row itself, so jobs reading or inserting together share one. Nothing is
 * cached: each call still sees the store as it is when its batch runs. A failed batch fails every call
 * in it, which BullMQ retries like any other store error.
 *
 * @param run - takes the batched inputs and returns one output per input, in the same order.
 * @param maxBatch - inputs per statement. @defaultValue 100
 */
export function createMicroBatcher<I, O>(run: (inputs: I[]) => Promise<O[]>, maxBatch = 100): (input: I) => Promise<O> {
  let waiting: Array<{ input: I; resolve: (o: O) => void; reject: (e: unknown) => void }> = [];

  const flush = () => {
    const batch = waiting;
    waiting = [];
    for (let i = 0; i < batch.length; i += maxBatch) {
      const chunk = batch.slice(i, i + maxBatch);
      run(chunk.map((w) => w.input)).then(
        (outputs) => chunk.forEach((w, n) => w.resolve(outputs[n])),
        (error: unknown) => chunk.forEach((w) => w.reject(error)),
      );
    }
  };

  return (input) =>
    new Promise<O>((resolve, reject) => {
      if (waiting.length === 0) setImmediate(flush);
      waiting.push({ input, resolve, reject });
    });
}
