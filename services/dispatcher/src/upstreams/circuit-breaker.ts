import type { BreakerRecord, BreakerStateName } from '@switchboard/shared-state';

/** The breaker's thresholds; {@link BREAKER_POLICY} is the one every dispatcher uses. */
export interface BreakerPolicy {
  /** Calls in the rolling window; the breaker judges only once it holds `minCalls`. */
  windowSize: number;
  minCalls: number;
  /** Share of bad calls (0..1) in the window that opens the breaker. */
  failureRateThreshold: number;
  /** A call slower than this counts as bad even if it succeeded: a slow majority opens the breaker. */
  slowCallMs: number;
  /** How long an open breaker refuses traffic before one probe is let through. */
  coolDownMs: number;
  /** How long a probe may hold a half-open upstream before another may be tried. */
  probeTimeoutMs: number;
}

/**
 * The thresholds, none of which an operator needs to choose (docs/routing.md#several-upstreams-per-channel): a window
 * of the last 20 calls, judged once it holds 10, so that two unlucky calls open nothing; half the window bad opens a
 * breaker, as resilience4j's default does; a call slower than 5 s, half the adapters' 10 s request timeout, counts as
 * bad, so an upstream that slows down is left before its calls time out; an open breaker keeps traffic away for 30 s,
 * long enough for an upstream's restart or failover, before one probe; a probe may hold a half-open upstream for
 * 10 s, as long as its call can take, before a dispatcher that died mid-probe is presumed gone.
 */
export const BREAKER_POLICY: Readonly<BreakerPolicy> = Object.freeze({
  windowSize: 20,
  minCalls: 10,
  failureRateThreshold: 0.5,
  slowCallMs: 5_000,
  coolDownMs: 30_000,
  probeTimeoutMs: 10_000,
});

/** What the breaker says about one call about to be made. */
export type Admission =
  | { verdict: 'allow' }
  /** Half-open: this call is the probe; the state must first move (atomically) to `next`. */
  | { verdict: 'probe'; from: BreakerStateName; next: Omit<BreakerRecord, 'recent'> }
  | { verdict: 'reject' };

/** A state change decided after a call, to apply atomically from `from`. */
export interface BreakerChange {
  from: BreakerStateName;
  next: Omit<BreakerRecord, 'recent'>;
  /** Closing starts a fresh window, so the failures that opened it do not open it again. */
  clearWindow: boolean;
}

export function failureRate(recent: readonly boolean[]): number {
  return recent.length === 0 ? 0 : recent.filter((ok) => !ok).length / recent.length;
}

/** Whether a call may go to the upstream now (docs/routing.md#several-upstreams-per-channel). */
export function admit(record: BreakerRecord, now: number, policy: BreakerPolicy): Admission {
  switch (record.state) {
    case 'closed':
      return { verdict: 'allow' };
    case 'open':
      if (now < record.openedAt + policy.coolDownMs) return { verdict: 'reject' };
      return { verdict: 'probe', from: 'open', next: { state: 'half_open', openedAt: record.openedAt, probeUntil: now + policy.probeTimeoutMs } };
    case 'half_open':
      // A probe that never reported (its process died) must not hold the upstream forever.
      if (now < record.probeUntil) return { verdict: 'reject' };
      return { verdict: 'probe', from: 'half_open', next: { state: 'half_open', openedAt: record.openedAt, probeUntil: now + policy.probeTimeoutMs } };
  }
}

/** Whether a finished call counts as good: it answered, in time. */
export function isGoodCall(outcome: { failed: boolean; durationMs: number }, policy: BreakerPolicy): boolean {
  return !outcome.failed && outcome.durationMs <= policy.slowCallMs;
}

/**
 * The state change after a call whose outcome is already in `record.recent` (newest first).
 * A probe's outcome decides a half-open breaker alone; a closed one opens on the window's failure rate.
 */
export function afterCall(record: BreakerRecord, good: boolean, wasProbe: boolean, now: number, policy: BreakerPolicy): BreakerChange | null {
  if (record.state === 'half_open' && wasProbe) {
    return good
      ? { from: 'half_open', next: { state: 'closed', openedAt: record.openedAt, probeUntil: 0 }, clearWindow: true }
      : { from: 'half_open', next: { state: 'open', openedAt: now, probeUntil: 0 }, clearWindow: false };
  }
  if (record.state !== 'closed') return null;
  const window = record.recent.slice(0, policy.windowSize);
  if (window.length < policy.minCalls || failureRate(window) < policy.failureRateThreshold) return null;
  return { from: 'closed', next: { state: 'open', openedAt: now, probeUntil: 0 }, clearWindow: false };
}
