/**
 * Back-pressure on sends. Every accepted send owes its receiver one or more receipts; when the receiver
 * takes them more slowly than sends arrive, that debt is memory. Past `maxBacklog` receipts owed and not yet
 * taken (`maxBacklog()`, read at each send so that it can change at run time), a new send is not refused: it is handled later, once the debt is back under the maximum, as a
 * congested upstream answers slowly. Held sends go as soon as it is, not after a deeper drain: the wait has
 * to stay well inside the sender's request timeout (a sender that gives up and resends would double the work). A sender with a bounded number of connections or a bounded SMPP window
 * (all of ours) then slows to the receiver's pace, and the simulator's memory stays bounded
 * (docs/performance/carrier-sim.md#carrier-sim, docs/sandbox.md#receipts-under-load).
 */
export interface SendGate {
  /** Runs `send` now, or once the backlog is under the maximum again, after the sends held before it. */
  admit(send: () => void): void;
  /** Sends waiting for the backlog to drain. */
  waiting(): number;
  stop(): void;
}

/** How often a gate with waiting sends looks at the backlog again. */
const RECHECK_MS = 5;

export function createSendGate(deps: { backlog: () => number; maxBacklog: () => number }): SendGate {
  let parked: Array<() => void> = [];
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const recheck = () => {
    timer = null;
    if (stopped) return;
    if (deps.backlog() >= deps.maxBacklog()) {
      timer = setTimeout(recheck, RECHECK_MS);
      return;
    }
    const released = parked;
    parked = [];
    for (const send of released) send();
  };

  return {
    admit(send) {
      if (stopped) return;
      if (parked.length === 0 && deps.backlog() < deps.maxBacklog()) {
        send();
        return;
      }
      parked.push(send);
      if (timer === null) timer = setTimeout(recheck, RECHECK_MS);
    },
    waiting() {
      return parked.length;
    },
    stop() {
      stopped = true;
      parked = [];
      if (timer) clearTimeout(timer);
    },
  };
}
