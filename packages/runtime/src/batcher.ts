/**
 * When a batcher sends the inputs it gathered (docs/architecture.md#batching):
 * - `'next-turn'`: the inputs that arrive in one turn of the event loop (the requests or jobs that woke up
 *   together) go together, at `setImmediate`;
 * - `'after-previous'`: an input arriving while nothing of its key is being run goes at once; those arriving
 *   meanwhile wait for that run to end and go together in the next one (group commit: no timer, groups grow
 *   with the load by themselves);
 * - `{ waitMs }`: the first input of a group waits `waitMs` for others.
 *
 * Whatever the rule, a group goes at once when it reaches `maxSize`.
 */
export type FlushRule = 'next-turn' | 'after-previous' | { waitMs: number };

/**
 * What a failed group does to its callers (docs/architecture.md#batching):
 * - `'fail-group'`: every caller of the group is rejected with the group's error;
 * - `'retry-each-alone'`: each input of the group is run again alone through `runOne`, so that one bad input
 *   (or a deadlock) fails only its own caller. Fit for writes that are all or nothing.
 */
export type FailureRule = 'fail-group' | 'retry-each-alone';

interface BatcherCommon<I, R, K> {
  /** Runs the inputs of one group (of one key) together and answers one result per input, in their order. */
  runMany: (inputs: I[], key: K) => Promise<R[]>;
  flush: FlushRule;
  /** Size of a group at most; an input that would take the group past it starts the next group. 1 or less: every input runs alone at once. */
  maxSize: number;
  /** How much of `maxSize` one input takes (a job carrying several receipts). @defaultValue 1 */
  sizeOf?: (input: I) => number;
}

export type BatcherOptions<I, R, K> = BatcherCommon<I, R, K> &
  (
    | {
        onGroupFailure: 'fail-group';
        /** Runs a group of one, when that is cheaper than `runMany` of one. @defaultValue `runMany` of one */
        runOne?: (input: I, key: K) => Promise<R>;
      }
    | {
        onGroupFailure: 'retry-each-alone';
        /** Runs a group of one, and each input of a failed group. */
        runOne: (input: I, key: K) => Promise<R>;
      }
  );

/** One call, gathered with the calls of the same key; settles once the run that carried its input settled. */
export type Batched<I, R, K = void> = (input: I, key: K) => Promise<R>;

interface Waiting<I, R> {
  input: I;
  size: number;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

interface Gathering<I, R> {
  waiting: Waiting<I, R>[];
  size: number;
  /** `'after-previous'`: a run of this key is under way. */
  running: boolean;
  /** `'next-turn'` and `{ waitMs }`: cancels the pending flush. */
  cancelFlush?: () => void;
}

/**
 * The one way to gather the calls of concurrent callers and run them together (docs/architecture.md#batching).
 * Calls are kept apart by `key` (a key holds no state while idle); a group keeps the order its calls came in.
 * A caller's promise settles only once the run that carried its input settled.
 */
export function createBatcher<I, R, K = void>(options: BatcherOptions<I, R, K>): Batched<I, R, K> {
  const { runMany, runOne, flush, maxSize, sizeOf = () => 1, onGroupFailure } = options;
  const runAlone = runOne ?? (async (input: I, key: K) => (await runMany([input], key))[0]);
  if (maxSize <= 1) return runAlone;
  const gatherings = new Map<K, Gathering<I, R>>();

  const settleAlone = async (entry: Waiting<I, R>, key: K) => {
    try {
      entry.resolve(await runAlone(entry.input, key));
    } catch (error) {
      entry.reject(error);
    }
  };

  const runGroup = async (group: Waiting<I, R>[], key: K): Promise<void> => {
    if (group.length === 1 && runOne) return settleAlone(group[0], key);
    let results: R[];
    try {
      results = await runMany(
        group.map((entry) => entry.input),
        key,
      );
    } catch (error) {
      if (onGroupFailure === 'retry-each-alone') await Promise.all(group.map((entry) => settleAlone(entry, key)));
      else for (const entry of group) entry.reject(error);
      return;
    }
    group.forEach((entry, index) => entry.resolve(results[index]));
  };

  /** The oldest waiting inputs that fit in `maxSize`; one at least, however large. */
  const takeGroup = (gathering: Gathering<I, R>) => {
    let size = 0;
    let count = 0;
    while (count < gathering.waiting.length && (count === 0 || size + gathering.waiting[count].size <= maxSize)) size += gathering.waiting[count++].size;
    gathering.size -= size;
    return gathering.waiting.splice(0, count);
  };

  // 'after-previous': the key stays in the map while its groups run; that is what tells a new caller to wait.
  const runInTurn = async (key: K, gathering: Gathering<I, R>) => {
    gathering.running = true;
    while (gathering.waiting.length > 0) await runGroup(takeGroup(gathering), key);
    gatherings.delete(key);
  };

  // 'next-turn' and { waitMs }: the gathered group goes, and the next caller of the key starts a new one.
  const sendGathered = (key: K, gathering: Gathering<I, R>) => {
    gathering.cancelFlush?.();
    gatherings.delete(key);
    while (gathering.waiting.length > 0) void runGroup(takeGroup(gathering), key);
  };

  const gatheringOf = (key: K) => {
    let gathering = gatherings.get(key);
    if (!gathering) gatherings.set(key, (gathering = { waiting: [], size: 0, running: false }));
    return gathering;
  };

  return (input, key) =>
    new Promise<R>((resolve, reject) => {
      const entry = { input, size: sizeOf(input), resolve, reject };
      let gathering = gatheringOf(key);
      if (flush === 'after-previous') {
        gathering.waiting.push(entry);
        gathering.size += entry.size;
        if (!gathering.running) void runInTurn(key, gathering);
        return;
      }
      if (gathering.waiting.length > 0 && gathering.size + entry.size > maxSize) {
        sendGathered(key, gathering);
        gathering = gatheringOf(key);
      }
      gathering.waiting.push(entry);
      gathering.size += entry.size;
      if (gathering.size >= maxSize) return sendGathered(key, gathering);
      if (gathering.cancelFlush) return;
      const current = gathering;
      if (flush === 'next-turn') {
        // setImmediate runs after the I/O callbacks of this turn: the callers that woke up together.
        const immediate = setImmediate(() => sendGathered(key, current));
        current.cancelFlush = () => clearImmediate(immediate);
      } else {
        const timer = setTimeout(() => sendGathered(key, current), flush.waitMs);
        current.cancelFlush = () => clearTimeout(timer);
      }
    });
}
