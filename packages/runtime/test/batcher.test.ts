import { createBatcher } from '../src/batcher';

/** A runMany whose completion the test controls, recording the groups it was given (with their key). */
function controlledRuns() {
  const groups: string[][] = [];
  const release: Array<() => void> = [];
  const runMany = (inputs: string[], key: string) => {
    groups.push([key, ...inputs]);
    return new Promise<string[]>((resolve) => release.push(() => resolve(inputs.map((input) => `${input}!`))));
  };
  return { groups, release, runMany };
}

/** A runMany that answers at once, recording its groups; `failNext` makes the next call reject like a lost connection. */
function recordingRuns() {
  const groups: string[][] = [];
  let failNext = false;
  return {
    groups,
    failNextCall: () => (failNext = true),
    runMany: async (inputs: string[]) => {
      groups.push(inputs);
      if (failNext) {
        failNext = false;
        throw new Error('connection lost');
      }
      return inputs.map((input) => `${input}!`);
    },
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const outcomes = (settled: PromiseSettledResult<string>[]) => settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message));

describe("flush rule 'next-turn'", () => {
  it('runs the calls of one turn as one group, in order, each answered with its own result; a later call is a group of its own', async () => {
    const runs = recordingRuns();
    const batched = createBatcher<string, string>({ runMany: runs.runMany, flush: 'next-turn', maxSize: 100, onGroupFailure: 'fail-group' });
    await expect(Promise.all([batched('a'), batched('b'), batched('c')])).resolves.toEqual(['a!', 'b!', 'c!']);
    await expect(batched('d')).resolves.toBe('d!');
    expect(runs.groups).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('runs a group of one through runOne when given', async () => {
    const kinds: string[] = [];
    const batched = createBatcher<string, string>({
      runMany: async (inputs) => (kinds.push(`many:${inputs.join()}`), inputs),
      runOne: async (input) => (kinds.push(`one:${input}`), input),
      flush: 'next-turn',
      maxSize: 100,
      onGroupFailure: 'fail-group',
    });
    await Promise.all([batched('a'), batched('b')]);
    await batched('c');
    expect(kinds).toEqual(['many:a,b', 'one:c']);
  });

  it('sends a group as soon as it reaches maxSize, without waiting for the turn to end', async () => {
    const { groups, runMany } = controlledRuns();
    const batched = createBatcher<string, string, string>({ runMany, flush: 'next-turn', maxSize: 2, onGroupFailure: 'fail-group' });
    void batched('a', 'k');
    void batched('b', 'k');
    expect(groups).toEqual([['k', 'a', 'b']]);
    void batched('c', 'k');
    await turn();
    expect(groups).toEqual([
      ['k', 'a', 'b'],
      ['k', 'c'],
    ]);
  });

  it('counts sizeOf against maxSize and never splits one call: a call that does not fit starts the next group', async () => {
    const groups: string[][][] = [];
    const batched = createBatcher<string[], void>({
      runMany: async (lists) => (groups.push(lists), lists.map(() => undefined)),
      flush: 'next-turn',
      maxSize: 3,
      sizeOf: (list) => list.length,
      onGroupFailure: 'fail-group',
    });
    await Promise.all([batched(['a', 'b']), batched(['c', 'd']), batched(['e']), batched(['f', 'g', 'h', 'i'])]);
    expect(groups).toEqual([[['a', 'b']], [['c', 'd'], ['e']], [['f', 'g', 'h', 'i']]]);
  });

  it('does not hold the next group behind a run that never settles', async () => {
    const { groups, release, runMany } = controlledRuns();
    const batched = createBatcher<string, string, string>({ runMany, flush: 'next-turn', maxSize: 10, onGroupFailure: 'fail-group' });
    let firstSettled = false;
    void batched('stuck', 'k').finally(() => (firstSettled = true));
    await turn();
    const second = batched('next', 'k');
    await turn();
    release[1]();
    await expect(second).resolves.toBe('next!');
    expect(firstSettled).toBe(false);
    expect(groups).toEqual([
      ['k', 'stuck'],
      ['k', 'next'],
    ]);
  });
});

describe("flush rule 'after-previous'", () => {
  it('runs a lone call at once, and gathers those arriving meanwhile into the next group, in order', async () => {
    const { groups, release, runMany } = controlledRuns();
    const batched = createBatcher<string, string, string>({ runMany, flush: 'after-previous', maxSize: 10, onGroupFailure: 'fail-group' });
    const first = batched('a', 'rcs');
    const rest = [batched('b', 'rcs'), batched('c', 'rcs')];
    await turn();
    expect(groups).toEqual([['rcs', 'a']]);
    release.shift()?.();
    await expect(first).resolves.toBe('a!');
    await turn();
    expect(groups).toEqual([
      ['rcs', 'a'],
      ['rcs', 'b', 'c'],
    ]);
    release.shift()?.();
    await expect(Promise.all(rest)).resolves.toEqual(['b!', 'c!']);
  });

  it('keeps keys apart and caps a group at maxSize', async () => {
    const { groups, release, runMany } = controlledRuns();
    const batched = createBatcher<string, string, string>({ runMany, flush: 'after-previous', maxSize: 2, onGroupFailure: 'fail-group' });
    const all = [batched('a', 'chat'), batched('x', 'rcs'), batched('b', 'chat'), batched('c', 'chat'), batched('d', 'chat')];
    for (let i = 0; i < 4; i += 1) {
      await turn();
      release.splice(0).forEach((go) => go());
    }
    await expect(Promise.all(all)).resolves.toEqual(['a!', 'x!', 'b!', 'c!', 'd!']);
    expect(groups).toEqual([
      ['chat', 'a'],
      ['rcs', 'x'],
      ['chat', 'b', 'c'],
      ['chat', 'd'],
    ]);
  });

  it('holds the calls of a key behind a run that never settles, and only that key', async () => {
    const { groups, release, runMany } = controlledRuns();
    const batched = createBatcher<string, string, string>({ runMany, flush: 'after-previous', maxSize: 10, onGroupFailure: 'fail-group' });
    void batched('stuck', 'k');
    let waitingSettled = false;
    void batched('behind', 'k').finally(() => (waitingSettled = true));
    const other = batched('free', 'other');
    await turn();
    release[1]();
    await expect(other).resolves.toBe('free!');
    await turn();
    expect(waitingSettled).toBe(false);
    expect(groups).toEqual([
      ['k', 'stuck'],
      ['other', 'free'],
    ]);
  });
});

describe('flush rule { waitMs }', () => {
  afterEach(() => jest.useRealTimers());

  it('gathers the calls arriving within waitMs of the first into one group', async () => {
    jest.useFakeTimers();
    const runs = recordingRuns();
    const batched = createBatcher<string, string>({ runMany: runs.runMany, flush: { waitMs: 2 }, maxSize: 64, onGroupFailure: 'fail-group' });
    const first = batched('a');
    jest.advanceTimersByTime(1);
    const second = batched('b');
    expect(runs.groups).toEqual([]);
    jest.advanceTimersByTime(1);
    await expect(Promise.all([first, second])).resolves.toEqual(['a!', 'b!']);
    const third = batched('c');
    jest.advanceTimersByTime(2);
    await expect(third).resolves.toBe('c!');
    expect(runs.groups).toEqual([['a', 'b'], ['c']]);
  });

  it('sends a full group at once and starts the wait again for the next one', async () => {
    jest.useFakeTimers();
    const runs = recordingRuns();
    const batched = createBatcher<string, string>({ runMany: runs.runMany, flush: { waitMs: 2 }, maxSize: 2, onGroupFailure: 'fail-group' });
    const all = [batched('a'), batched('b'), batched('c')];
    expect(runs.groups).toEqual([['a', 'b']]);
    jest.advanceTimersByTime(2);
    await expect(Promise.all(all)).resolves.toEqual(['a!', 'b!', 'c!']);
    expect(runs.groups).toEqual([['a', 'b'], ['c']]);
  });
});

describe('failure rules', () => {
  it("'fail-group' rejects every caller of a failed group with its error; the next group goes through", async () => {
    const runs = recordingRuns();
    const batched = createBatcher<string, string>({ runMany: runs.runMany, flush: 'next-turn', maxSize: 100, onGroupFailure: 'fail-group' });
    runs.failNextCall();
    const failed = await Promise.allSettled([batched('a'), batched('b')]);
    const next = await Promise.allSettled([batched('c'), batched('d')]);
    expect(outcomes(failed)).toEqual(['connection lost', 'connection lost']);
    expect(outcomes(next)).toEqual(['c!', 'd!']);
  });

  it("'retry-each-alone' runs each input of a failed group alone, so one bad input fails only its caller", async () => {
    let unblock: () => void = () => undefined;
    const batched = createBatcher<string, string, string>({
      runMany: async (inputs) => {
        throw new Error(`group of ${inputs.length} refused`);
      },
      // A group of one goes through runOne too: the first input holds the key until the test unblocks it.
      runOne: async (input) => {
        if (input === 'first') await new Promise<void>((resolve) => (unblock = resolve));
        if (input === 'bad') throw new Error('bad input');
        return `${input} alone`;
      },
      flush: 'after-previous',
      maxSize: 5,
      onGroupFailure: 'retry-each-alone',
    });
    const first = batched('first', 'k');
    const later = [batched('good', 'k'), batched('bad', 'k')];
    await turn();
    unblock();
    await expect(first).resolves.toBe('first alone');
    expect(outcomes(await Promise.allSettled(later))).toEqual(['good alone', 'bad input']);
  });

  it("'retry-each-alone' with a timer: the callers of a failed group settle with their own outcome", async () => {
    const batched = createBatcher<string, string>({
      runMany: async () => {
        throw new Error('deadlock');
      },
      runOne: async (input) => {
        if (input === 'bad') throw new Error('bad input');
        return `${input} alone`;
      },
      flush: { waitMs: 1 },
      maxSize: 64,
      onGroupFailure: 'retry-each-alone',
    });
    expect(outcomes(await Promise.allSettled([batched('good'), batched('bad')]))).toEqual(['good alone', 'bad input']);
  });
});

it('runs every call alone and at once when maxSize is 1', async () => {
  const { groups, release, runMany } = controlledRuns();
  const batched = createBatcher<string, string, string>({ runMany, flush: 'after-previous', maxSize: 1, onGroupFailure: 'fail-group' });
  const both = [batched('a', 'k'), batched('b', 'k')];
  expect(groups).toEqual([
    ['k', 'a'],
    ['k', 'b'],
  ]);
  release.splice(0).forEach((go) => go());
  await expect(Promise.all(both)).resolves.toEqual(['a!', 'b!']);
});

it('settles no caller before the run carrying its input settled', async () => {
  const { release, runMany } = controlledRuns();
  const batched = createBatcher<string, string, string>({ runMany, flush: 'next-turn', maxSize: 100, onGroupFailure: 'fail-group' });
  let done = false;
  const pending = batched('a', 'k').then(() => (done = true));
  await turn();
  await turn();
  expect(done).toBe(false);
  release[0]();
  await pending;
  expect(done).toBe(true);
});
