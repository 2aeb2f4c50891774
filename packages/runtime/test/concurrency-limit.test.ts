import { createConcurrencyLimit } from '../src/concurrency-limit';

/** A unit of work the test finishes by hand, so the order of events is explicit (no timers). */
function deferred() {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<string>((resolve, reject) => ((finish = resolve), (fail = reject)));
  return { promise, finish, fail };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('batch admission', () => {
  it('runs at most `limit` batches at once and admits the waiting ones in arrival order', async () => {
    const admitted = createConcurrencyLimit(2);
    const works = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const results = works.map((w, i) => admitted(() => (started.push(i), w.promise)));
    await turn();
    expect(started).toEqual([0, 1]);
    works[1].finish('b');
    await turn();
    expect(started).toEqual([0, 1, 2]);
    works[0].finish('a');
    await turn();
    expect(started).toEqual([0, 1, 2, 3]);
    works[2].finish('c');
    works[3].finish('d');
    await expect(Promise.all(results)).resolves.toEqual(['a', 'b', 'c', 'd']);
  });

  it('frees the slot of a batch that failed, and passes its error on', async () => {
    const admitted = createConcurrencyLimit(1);
    const first = deferred();
    const failing = admitted(() => first.promise);
    let secondStarted = false;
    const second = admitted(async () => ((secondStarted = true), 'second'));
    await turn();
    expect(secondStarted).toBe(false);
    first.fail(new Error('redis down'));
    await expect(failing).rejects.toThrow('redis down');
    await expect(second).resolves.toBe('second');
    // The count went back to zero: a new batch starts at once.
    let thirdStarted = false;
    const third = admitted(async () => ((thirdStarted = true), 'third'));
    expect(thirdStarted).toBe(true);
    await third;
  });

  it('starts waiting work when the limit grows, and lets running work finish when it shrinks', async () => {
    const admitted = createConcurrencyLimit(1);
    const works = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const results = works.map((w, i) => admitted(() => (started.push(i), w.promise)));
    await turn();
    expect(started).toEqual([0]);
    admitted.setLimit(3);
    await turn();
    expect(started).toEqual([0, 1, 2]);
    admitted.setLimit(1);
    works[0].finish('a');
    works[1].finish('b');
    await turn();
    // Two of three finished, one still runs: at the new limit of one, nothing else starts.
    expect(started).toEqual([0, 1, 2]);
    works[2].finish('c');
    await turn();
    expect(started).toEqual([0, 1, 2, 3]);
    works[3].finish('d');
    await expect(Promise.all(results)).resolves.toEqual(['a', 'b', 'c', 'd']);
  });
});
