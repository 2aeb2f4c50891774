import { createLineBudget } from '../src/calls/line-budget';

describe('line budget', () => {
  it('gives a second leg a line only while calls and second legs together stay within capacity, and reports the count', () => {
    let calls = 2;
    const reported: number[] = [];
    const lines = createLineBudget({ capacity: 4, callsHeld: () => calls, onSecondLegsChanged: (n) => reported.push(n) });
    expect(lines.take()).toBe(true);
    expect(lines.take()).toBe(true);
    expect(lines.take()).toBe(false); // 2 calls + 2 second legs = 4
    calls = 1;
    expect(lines.take()).toBe(true);
    lines.release();
    lines.release();
    lines.release();
    lines.release(); // one release too many does not go below zero
    expect(lines.secondLegs).toBe(0);
    expect(reported).toEqual([1, 2, 3, 2, 1, 0]);
  });
});
