import { createEnqueueCoalescer } from '../src/messages/enqueue-coalescer';

/** Records what reached "Redis"; `failNext` makes the next call reject like a broken connection. */
function recordingQueue() {
  const calls: Array<{ kind: 'one' | 'many'; items: number[] }> = [];
  let failNext = false;
  const settle = (kind: 'one' | 'many', items: number[]) => {
    calls.push({ kind, items });
    if (failNext) {
      failNext = false;
      return Promise.reject(new Error('connection lost'));
    }
    return Promise.resolve();
  };
  return {
    calls,
    failNextCall: () => (failNext = true),
    addOne: (item: number) => settle('one', [item]),
    addMany: (items: number[]) => settle('many', items),
  };
}

describe('enqueue coalescer (jobs of concurrent requests in one addBulk)', () => {
  it('sends the jobs enqueued in one turn as one addBulk, and a job alone as one add', async () => {
    const queue = recordingQueue();
    const enqueue = createEnqueueCoalescer({ ...queue, maxItems: 100 });
    await Promise.all([enqueue(1), enqueue(2), enqueue(3)]);
    await enqueue(4);
    expect(queue.calls).toEqual([
      { kind: 'many', items: [1, 2, 3] },
      { kind: 'one', items: [4] },
    ]);
  });

  it('resolves no caller before the call carrying its job settled', async () => {
    let release!: () => void;
    const enqueue = createEnqueueCoalescer<number>({
      addOne: () => new Promise<void>((resolve) => (release = resolve)),
      addMany: () => Promise.resolve(),
      maxItems: 100,
    });
    let done = false;
    const pending = enqueue(1).then(() => (done = true));
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    release();
    await pending;
    expect(done).toBe(true);
  });

  it('rejects only the callers of a failed batch; the next batch goes through', async () => {
    const queue = recordingQueue();
    const enqueue = createEnqueueCoalescer({ ...queue, maxItems: 100 });
    queue.failNextCall();
    const failed = await Promise.allSettled([enqueue(1), enqueue(2)]);
    const next = await Promise.allSettled([enqueue(3), enqueue(4)]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((failed[0] as PromiseRejectedResult).reason).toEqual(new Error('connection lost'));
    expect(next.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
  });

  it('sends a batch as soon as it reaches maxItems', async () => {
    const queue = recordingQueue();
    const enqueue = createEnqueueCoalescer({ ...queue, maxItems: 2 });
    await Promise.all([enqueue(1), enqueue(2), enqueue(3)]);
    expect(queue.calls).toEqual([
      { kind: 'many', items: [1, 2] },
      { kind: 'one', items: [3] },
    ]);
  });
});
