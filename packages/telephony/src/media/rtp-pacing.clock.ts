import { performance } from 'node:perf_hooks';

export interface PacedSenderClock {
  /** Monotonic milliseconds. */
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export const systemClock: PacedSenderClock = {
  now: () => performance.now(),
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** A sender's place on the pacing clock: its start on the grid, and the way off it. */
export interface PacingMembership {
  /** The grid point at or before the moment it joined: the sender's tick 0 is due then. */
  readonly startedAt: number;
  leave(): void;
}

/**
 * One 20 ms grid for every paced sender of a process (docs/performance/voice.md#voice). A timer per leg meant 50 timer
 * wake-ups per leg per second, each at its own phase, and under load a late wake-up for one leg delayed the next
 * leg's; with one timer, every leg's ticks are due at the same grid points and one wake-up sends them all. A sender
 * joining starts on the last grid point, so its first tick goes out at once and is at most one period "late".
 */
export interface PacingClock {
  /** `wake(now)` is called at every grid point until `leave`: it sends whatever ticks of its own are due. */
  join(wake: (now: number) => void): PacingMembership;
}

export function createPacingClock(clock: PacedSenderClock = systemClock, frameMs = 20): PacingClock {
  const members = new Set<(now: number) => void>();
  let origin: number | undefined;
  let timer: unknown;

  const gridAtOrBefore = (now: number) => (origin as number) + Math.floor((now - (origin as number)) / frameMs) * frameMs;
  const schedule = () => {
    const now = clock.now();
    timer = clock.setTimer(tick, Math.max(0, gridAtOrBefore(now) + frameMs - now));
  };
  const tick = () => {
    timer = undefined;
    const now = clock.now();
    // A member that leaves during its wake (the call ended) is removed from the set; iteration stays valid.
    for (const wake of members) wake(now);
    if (members.size > 0 && timer === undefined) schedule();
  };

  return {
    join(wake) {
      const now = clock.now();
      origin ??= now;
      members.add(wake);
      if (timer === undefined) schedule();
      return {
        startedAt: gridAtOrBefore(now),
        leave() {
          if (!members.delete(wake) || members.size > 0 || timer === undefined) return;
          clock.clearTimer(timer);
          timer = undefined;
        },
      };
    },
  };
}

/** The clock every leg of this process shares unless a test gives a sender its own. */
export const processPacingClock: PacingClock = createPacingClock();
