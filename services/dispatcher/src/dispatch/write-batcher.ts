/** One write of one job, gathered with the same writes of the jobs running at the same moment. */
export type BatchedWrite<I, R> = (input: I) => Promise<R>;

interface Waiting<I, R> {
  input: I;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

export interface WriteBatcherOptions<I, R> {
  /** Writes every input in one transaction, all or nothing, and answers in their order. */
  writeMany: (inputs: I[]) => Promise<R[]>;
  /** Writes one input alone: a batch of one, and the fallback of a batch that failed. */
  writeOne: (input: I) => Promise<R>;
  /** @defaultValue 64; 1 writes every job alone, as before the send batches (an A/B in one checkout) */
  maxBatch?: number;
  /** How long the first write of a batch waits for others. @defaultValue 2 */
  waitMs?: number;
  /** How much of `maxBatch` one input takes (a callback job carries several receipts). @defaultValue 1 */
  sizeOf?: (input: I) => number;
}

/**
 * Gathers the writes of concurrently running jobs for `waitMs` or until `maxBatch`, then writes them together
 * (docs/performance/dispatch.md#send-batches), as the receipt batcher does for receipts. When the batch fails nothing of it
 * was written, and each input is written again alone, so that one bad input (or a deadlock) fails only its own job.
 * A caller's promise settles only once its write is committed.
 */
export function createWriteBatcher<I, R>({ writeMany, writeOne, maxBatch = 64, waitMs = 2, sizeOf = () => 1 }: WriteBatcherOptions<I, R>): BatchedWrite<I, R> {
  if (maxBatch <= 1) return writeOne;
  let waiting: Waiting<I, R>[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;

  const settleAlone = async (entry: Waiting<I, R>) => {
    try {
      entry.resolve(await writeOne(entry.input));
    } catch (error) {
      entry.reject(error);
    }
  };

  const flush = async () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = waiting;
    waiting = [];
    size = 0;
    if (batch.length === 0) return;
    if (batch.length === 1) return settleAlone(batch[0]);
    let results: R[];
    try {
      results = await writeMany(batch.map((entry) => entry.input));
    } catch {
      await Promise.all(batch.map(settleAlone));
      return;
    }
    batch.forEach((entry, index) => entry.resolve(results[index]));
  };

  return (input) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ input, resolve, reject });
      size += sizeOf(input);
      if (size >= maxBatch) void flush();
      else timer ??= setTimeout(() => void flush(), waitMs);
    });
}
