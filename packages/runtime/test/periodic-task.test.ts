import { createPeriodicTask } from '../src/periodic-task';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('createPeriodicTask', () => {
  it('runs at start, again after each run ends, and goes on after a run that throws', async () => {
    const errors: string[] = [];
    let runs = 0;
    const task = createPeriodicTask(
      async () => {
        runs += 1;
        if (runs === 2) throw new Error('database restarting');
      },
      { intervalMs: 5, onError: (error) => errors.push(error.message) },
    );
    task.start();
    expect(runs).toBe(1);
    for (let i = 0; i < 200 && runs < 4; i += 1) await tick(5);
    await task.stop();
    expect(runs).toBeGreaterThanOrEqual(4);
    expect(errors).toEqual(['database restarting']);
  });

  it('never runs twice at once, and stop waits for the run in progress and ends the schedule', async () => {
    let active = 0;
    let most = 0;
    let runs = 0;
    let release: () => void = () => undefined;
    const task = createPeriodicTask(
      async () => {
        runs += 1;
        active += 1;
        most = Math.max(most, active);
        await new Promise<void>((resolve) => (release = resolve));
        active -= 1;
      },
      { intervalMs: 1, onError: () => undefined },
    );
    task.start();
    await tick(20);
    let stopped = false;
    const stopping = task.stop().then(() => (stopped = true));
    await tick(5);
    expect(stopped).toBe(false);
    release();
    await stopping;
    await tick(20);
    expect({ runs, most, active }).toEqual({ runs: 1, most: 1, active: 0 });
  });
});
