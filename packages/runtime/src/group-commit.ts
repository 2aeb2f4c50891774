interface Waiting<I, R> {
  input: I;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

export interface GroupCommitOptions<K, I, R> {
  /** Writes the inputs of one key together and answers in their order. */
  writeMany: (key: K, inputs: I[]) => Promise<R[]>;
  /**
   * Writes one input alone: a group of one, and, when given, the fallback of a group that failed, so that
   * one bad input fails only its own caller. Without it a failed group fails all its callers.
   */
  writeOne?: (key: K, input: I) => Promise<R>;
  /** Inputs per write at most. */
  maxGroup: number;
}

/** One write, gathered with the writes of the same key that arrive while that key's previous group is written. */
export type GroupedWrite<K, I, R> = (key: K, input: I) => Promise<R>;

/**
 * Group commit without a timer (docs/performance/dispatch.md#dispatch): a write arriving while nothing of its key is
 * being written goes out at once (a lone write waits for nothing, and a peer that sends one item at a time is
 * not slowed); the writes of that key arriving meanwhile wait for it and go together in the next group, up to
 * `maxGroup`, in the order they came. Groups grow with the load by themselves. A key holds no state while
 * idle. A caller's promise settles once its input is written.
 */
export function createGroupCommit<K, I, R>({ writeMany, writeOne, maxGroup }: GroupCommitOptions<K, I, R>): GroupedWrite<K, I, R> {
  // A group of one at most: every write goes out at once, none waits for another.
  if (maxGroup <= 1) return writeOne ?? (async (key, input) => (await writeMany(key, [input]))[0]);
  const waitingOf = new Map<K, Waiting<I, R>[]>();

  const settleAlone = async (key: K, entry: Waiting<I, R>, write: (key: K, input: I) => Promise<R>) => {
    try {
      entry.resolve(await write(key, entry.input));
    } catch (error) {
      entry.reject(error);
    }
  };

  const writeGroups = async (key: K) => {
    // The key stays in the map while its groups are written: that is what tells a new caller to wait.
    for (let waiting = waitingOf.get(key) ?? []; waiting.length > 0; waiting = waitingOf.get(key) ?? []) {
      const group = waiting.splice(0, maxGroup);
      if (group.length === 1 && writeOne) {
        await settleAlone(key, group[0], writeOne);
        continue;
      }
      let results: R[];
      try {
        results = await writeMany(key, group.map((entry) => entry.input));
      } catch (error) {
        if (writeOne) await Promise.all(group.map((entry) => settleAlone(key, entry, writeOne)));
        else for (const entry of group) entry.reject(error);
        continue;
      }
      group.forEach((entry, index) => entry.resolve(results[index]));
    }
    waitingOf.delete(key);
  };

  return (key, input) =>
    new Promise<R>((resolve, reject) => {
      const waiting = waitingOf.get(key);
      if (waiting) {
        waiting.push({ input, resolve, reject });
        return;
      }
      waitingOf.set(key, [{ input, resolve, reject }]);
      void writeGroups(key);
    });
}
