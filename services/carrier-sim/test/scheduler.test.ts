import { createScheduler } from '../src/support/scheduler';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('scheduler', () => {
  it('runs every action once, a lane in the order it was given, a shorter delay first', async () => {
    const ran: string[] = [];
    const errors: unknown[] = [];
    const scheduler = createScheduler((err) => errors.push(err));
    scheduler.after(40, () => void ran.push('b40'));
    scheduler.after(5, () => void ran.push('a5'));
    scheduler.after(40, () => void ran.push('c40'));
    scheduler.after(0, () => {
      ran.push('zero');
      // Scheduled on its own lane from inside it: runs on a later turn, not inside this one.
      scheduler.after(0, () => void ran.push('zero-again'));
      expect(ran).not.toContain('zero-again');
    });
    await sleep(120);
    expect([...ran].sort()).toEqual(['a5', 'b40', 'c40', 'zero', 'zero-again']);
    // One lane keeps its order; a shorter delay falls due first.
    expect(ran.filter((name) => name.endsWith('40'))).toEqual(['b40', 'c40']);
    expect(ran.indexOf('zero')).toBeLessThan(ran.indexOf('zero-again'));
    expect(ran.indexOf('a5')).toBeLessThan(ran.indexOf('b40'));
    expect(errors).toEqual([]);
  });

  it('reports a failing or rejecting action and goes on with the rest of its lane', async () => {
    const errors: unknown[] = [];
    const ran: number[] = [];
    const scheduler = createScheduler((err) => errors.push(err));
    scheduler.after(1, () => {
      throw new Error('thrown');
    });
    scheduler.after(1, () => Promise.reject(new Error('rejected')));
    scheduler.after(1, () => void ran.push(3));
    await sleep(50);
    expect(ran).toEqual([3]);
    expect(errors.map((e) => (e as Error).message).sort()).toEqual(['rejected', 'thrown']);
  });

  it('runs nothing after cancelAll, including what is scheduled later', async () => {
    const ran: number[] = [];
    const scheduler = createScheduler(() => undefined);
    scheduler.after(5, () => void ran.push(1));
    scheduler.cancelAll();
    scheduler.after(1, () => void ran.push(2));
    await sleep(40);
    expect(ran).toEqual([]);
  });
});
