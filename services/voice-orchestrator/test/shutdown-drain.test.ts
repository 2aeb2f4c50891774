import { drainLiveCalls } from '../src/calls/shutdown-drain';

describe('shutdown drain', () => {
  let now = 0;
  const clock = () => now;
  const logger = { info: () => undefined };
  beforeEach(() => {
    jest.useFakeTimers();
    now = 0;
  });
  afterEach(() => jest.useRealTimers());
  const advance = async (ms: number) => {
    for (let t = 0; t < ms; t += 50) {
      now += 50;
      await jest.advanceTimersByTimeAsync(50);
    }
  };

  it('resolves as soon as the last call has ended, before the grace is over', async () => {
    const calls = ['a', 'b'];
    let done = false;
    void drainLiveCalls({ ids: () => calls }, 10_000, logger, clock).then(() => (done = true));
    await advance(1_000);
    calls.pop();
    await advance(1_000);
    expect(done).toBe(false);
    calls.pop();
    await advance(500);
    expect(done).toBe(true);
  });

  it('gives up when the grace is over with calls still up', async () => {
    let done = false;
    void drainLiveCalls({ ids: () => ['a'] }, 3_000, logger, clock).then(() => (done = true));
    await advance(2_500);
    expect(done).toBe(false);
    await advance(1_000);
    expect(done).toBe(true);
  });

  it('does not wait at all without a grace or without calls', async () => {
    await expect(drainLiveCalls({ ids: () => ['a'] }, 0, logger, clock)).resolves.toBeUndefined();
    await expect(drainLiveCalls({ ids: () => [] }, 10_000, logger, clock)).resolves.toBeUndefined();
  });
});
