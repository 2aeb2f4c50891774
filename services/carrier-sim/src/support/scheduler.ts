/**
 * Every delayed action in the simulator (receipts, status webhooks, retries, template reviews)
 * goes through one scheduler so shutdown can cancel them all and the process exits promptly.
 */
export interface Scheduler {
  after(delayMs: number, action: () => void | Promise<void>): void;
  cancelAll(): void;
}

export function createScheduler(onError: (err: unknown) => void): Scheduler {
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  return {
    after(delayMs, action) {
      if (stopped) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        try {
          Promise.resolve(action()).catch(onError);
        } catch (err) {
          onError(err);
        }
      }, delayMs);
      timers.add(timer);
    },
    cancelAll() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
