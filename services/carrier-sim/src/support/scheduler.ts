/**
 * Every delayed action in the simulator (receipts, status webhooks, retries, template reviews)
 * goes through one scheduler so shutdown can cancel them all and the process exits promptly.
 */
export interface Scheduler {
  after(delayMs: number, action: () => void | Promise<void>): void;
  cancelAll(): void;
}

interface Lane {
  /** Actions in the order they were scheduled, which for one delay is also the order they fall due. */
  due: Array<{ at: number; action: () => void | Promise<void> }>;
  head: number;
  timer: NodeJS.Timeout | null;
}

/**
 * Actions are kept in one FIFO lane per distinct delay: every send schedules its receipts with the same
 * configured delays, so a lane's actions fall due in the order they were added and one timer per lane
 * (re-armed for the lane's next action) replaces one timer per action, which at thousands of sends a second
 * would create and destroy thousands of timer objects a second (docs/performance/carrier-sim.md#carrier-sim).
 */
export function createScheduler(onError: (err: unknown) => void, now: () => number = Date.now): Scheduler {
  const lanes = new Map<number, Lane>();
  let stopped = false;

  const run = (action: () => void | Promise<void>) => {
    try {
      const result = action();
      if (result && typeof result.catch === 'function') result.catch(onError);
    } catch (err) {
      onError(err);
    }
  };

  const arm = (lane: Lane) => {
    const next = lane.due[lane.head];
    lane.timer = setTimeout(() => fire(lane), Math.max(0, next.at - now()));
  };

  const fire = (lane: Lane) => {
    lane.timer = null;
    const at = now();
    // Due actions only, and only those scheduled before this turn: an action that schedules another on its
    // own lane (a delay of 0) gets a later turn, as it would with a timer of its own.
    const end = lane.due.length;
    while (!stopped && lane.head < end && lane.due[lane.head].at <= at) {
      const { action } = lane.due[lane.head];
      lane.head += 1;
      run(action);
    }
    if (stopped) return;
    if (lane.head >= lane.due.length) {
      lane.due = [];
      lane.head = 0;
      return;
    }
    // Drop what already ran once it is most of the array, so a busy lane's array does not grow forever.
    if (lane.head > 1024 && lane.head * 2 > lane.due.length) {
      lane.due = lane.due.slice(lane.head);
      lane.head = 0;
    }
    arm(lane);
  };

  return {
    after(delayMs, action) {
      if (stopped) return;
      let lane = lanes.get(delayMs);
      if (!lane) {
        lane = { due: [], head: 0, timer: null };
        lanes.set(delayMs, lane);
      }
      lane.due.push({ at: now() + delayMs, action });
      if (lane.timer === null) arm(lane);
    },
    cancelAll() {
      stopped = true;
      for (const lane of lanes.values()) {
        if (lane.timer) clearTimeout(lane.timer);
        lane.due = [];
      }
      lanes.clear();
    },
  };
}
