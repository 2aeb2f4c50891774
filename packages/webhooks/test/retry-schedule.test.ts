import fc from 'fast-check';
import { DEFAULT_RETRY_SCHEDULE_MS, nextRetryDelay, parseRetryAfter, parseRetrySchedule } from '../src';

describe('retry schedule', () => {
  it('defaults to immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    expect(DEFAULT_RETRY_SCHEDULE_MS).toEqual([0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
  });

  it('parses the environment form and refuses garbage', () => {
    expect(parseRetrySchedule('0, 200,500,1000')).toEqual([0, 200, 500, 1000]);
    expect(parseRetrySchedule('0,-1')).toBeNull();
    expect(parseRetrySchedule('0,abc')).toBeNull();
  });

  it('stays within the jitter bounds of the scheduled delay', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }), fc.double({ min: 0, max: 0.9999, noNaN: true }), (attemptsMade, r) => {
        const scheduled = DEFAULT_RETRY_SCHEDULE_MS[attemptsMade];
        const delay = nextRetryDelay({ schedule: DEFAULT_RETRY_SCHEDULE_MS, attemptsMade, jitterRatio: 0.2, random: () => r }) as number;
        return delay >= Math.floor(scheduled * 0.8) && delay <= Math.ceil(scheduled * 1.2);
      }),
    );
  });

  it('is exhausted after as many attempts as the schedule has entries', () => {
    expect(nextRetryDelay({ schedule: [0, 200, 500], attemptsMade: 2, random: () => 0.5 })).toBe(500);
    expect(nextRetryDelay({ schedule: [0, 200, 500], attemptsMade: 3 })).toBeNull();
  });

  it('honours Retry-After, clamped to twice the scheduled delay', () => {
    expect(nextRetryDelay({ schedule: [0, 5_000], attemptsMade: 1, retryAfterMs: 3_000 })).toBe(3_000);
    expect(nextRetryDelay({ schedule: [0, 5_000], attemptsMade: 1, retryAfterMs: 60_000 })).toBe(10_000);
    expect(nextRetryDelay({ schedule: [0, 5_000], attemptsMade: 1, retryAfterMs: -5 })).toBe(0);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2_000);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
