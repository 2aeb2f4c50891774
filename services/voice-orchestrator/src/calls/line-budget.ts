/**
 * The lines (call legs) one orchestrator process carries: `VOICE_CAPACITY` (docs/voice.md#capacity). Each call job
 * holds one through the worker's concurrency; a bridged transfer's second leg takes one more here, and while it is
 * held the worker takes one job fewer, so the process never carries more legs than its capacity.
 */
export interface LineBudget {
  /** Takes a line for a second leg; false when every line is in use. */
  take(): boolean;
  release(): void;
  readonly secondLegs: number;
}

export function createLineBudget(opts: { capacity: number; callsHeld: () => number; onSecondLegsChanged?: (secondLegs: number) => void }): LineBudget {
  let secondLegs = 0;
  const changed = () => opts.onSecondLegsChanged?.(secondLegs);
  return {
    take() {
      if (opts.callsHeld() + secondLegs >= opts.capacity) return false;
      secondLegs += 1;
      changed();
      return true;
    },
    release() {
      if (secondLegs === 0) return;
      secondLegs -= 1;
      changed();
    },
    get secondLegs() {
      return secondLegs;
    },
  };
}
