import { createMicroBatcher } from '../src/micro-batcher';

describe('micro-batcher', () => {
  it('sends calls made in the same turn as one batch and answers each with its own output', async () => {
    const batches: number[][] = [];
    const double = createMicroBatcher(async (inputs: number[]) => {
      batches.push(inputs);
      return inputs.map((n) => n * 2);
    });

    const answers = await Promise.all([double(1), double(2), double(3)]);
    const later = await double(4);

    expect(answers).toEqual([2, 4, 6]);
    expect(later).toBe(8);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it('splits a large turn into batches of at most maxBatch', async () => {
    const sizes: number[] = [];
    const echo = createMicroBatcher(async (inputs: string[]) => {
      sizes.push(inputs.length);
      return inputs;
    }, 2);

    const answers = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((s) => echo(s)));

    expect(answers).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('fails every call of a failed batch, and the next turn starts afresh', async () => {
    let fail = true;
    const flaky = createMicroBatcher(async (inputs: number[]) => {
      if (fail) throw new Error('store down');
      return inputs;
    });

    const failed = await Promise.allSettled([flaky(1), flaky(2)]);
    fail = false;

    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await flaky(3)).toBe(3);
  });
});
