import type { BreakerRecord } from '@switchboard/shared-state';
import { admit, afterCall, failureRate, isGoodCall, type BreakerPolicy } from '../src/upstreams/circuit-breaker';

const policy: BreakerPolicy = { windowSize: 10, minCalls: 10, failureRateThreshold: 0.5, slowCallMs: 1_000, coolDownMs: 30_000, probeTimeoutMs: 5_000 };
const closed = (recent: boolean[]): BreakerRecord => ({ state: 'closed', openedAt: 0, probeUntil: 0, recent });
const calls = (good: number, bad: number) => [...Array<boolean>(bad).fill(false), ...Array<boolean>(good).fill(true)];

describe('circuit breaker state machine', () => {
  it('stays closed until the window holds the minimum number of calls', () => {
    expect(afterCall(closed(calls(0, 9)), false, false, 1_000, policy)).toBeNull();
  });

  it('opens when half of the last calls failed', () => {
    expect(afterCall(closed(calls(5, 5)), false, false, 1_000, policy)).toEqual({
      from: 'closed',
      next: { state: 'open', openedAt: 1_000, probeUntil: 0 },
      clearWindow: false,
    });
  });

  it('stays closed below the failure rate, judging only the window', () => {
    expect(afterCall(closed(calls(6, 4)), false, false, 1_000, policy)).toBeNull();
    // Failures older than the window no longer count.
    expect(afterCall(closed([...calls(6, 4), false, false, false]), false, false, 1_000, policy)).toBeNull();
    expect(failureRate(calls(6, 4))).toBeCloseTo(0.4);
  });

  it('counts a slow success as a bad call', () => {
    expect(isGoodCall({ failed: false, durationMs: 1_001 }, policy)).toBe(false);
    expect(isGoodCall({ failed: false, durationMs: 1_000 }, policy)).toBe(true);
    expect(isGoodCall({ failed: true, durationMs: 1 }, policy)).toBe(false);
  });

  it('rejects calls while open, then lets one probe through after the cool-down', () => {
    const open: BreakerRecord = { state: 'open', openedAt: 10_000, probeUntil: 0, recent: [] };
    expect(admit(open, 39_999, policy)).toEqual({ verdict: 'reject' });
    expect(admit(open, 40_000, policy)).toEqual({ verdict: 'probe', from: 'open', next: { state: 'half_open', openedAt: 10_000, probeUntil: 45_000 } });
  });

  it('holds a half-open upstream for its probe, and frees it when the probe never reports', () => {
    const halfOpen: BreakerRecord = { state: 'half_open', openedAt: 10_000, probeUntil: 45_000, recent: [] };
    expect(admit(halfOpen, 44_999, policy)).toEqual({ verdict: 'reject' });
    expect(admit(halfOpen, 45_000, policy)).toMatchObject({ verdict: 'probe', from: 'half_open' });
  });

  it('closes with a fresh window when the probe succeeds, reopens when it fails', () => {
    const halfOpen: BreakerRecord = { state: 'half_open', openedAt: 10_000, probeUntil: 45_000, recent: [true, false, false] };
    expect(afterCall(halfOpen, true, true, 41_000, policy)).toEqual({
      from: 'half_open',
      next: { state: 'closed', openedAt: 10_000, probeUntil: 0 },
      clearWindow: true,
    });
    expect(afterCall(halfOpen, false, true, 41_000, policy)).toEqual({
      from: 'half_open',
      next: { state: 'open', openedAt: 41_000, probeUntil: 0 },
      clearWindow: false,
    });
  });

  it('ignores calls that started before the breaker opened', () => {
    expect(afterCall({ state: 'open', openedAt: 1, probeUntil: 0, recent: calls(0, 10) }, false, false, 2, policy)).toBeNull();
    expect(afterCall({ state: 'half_open', openedAt: 1, probeUntil: 9, recent: calls(0, 10) }, true, false, 2, policy)).toBeNull();
  });

  it('lets every call through while closed', () => {
    expect(admit(closed(calls(0, 10)), 0, policy)).toEqual({ verdict: 'allow' });
  });
});
