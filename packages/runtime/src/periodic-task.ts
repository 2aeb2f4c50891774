/**
 * A task run at start and then again `intervalMs` after each run ends, never two at once: a slow run delays the next
 * instead of piling runs up. A run that throws is reported through `onError` and the schedule goes on, so a passing
 * outage (the database restarting) does not stop the task for good. `stop()` waits for the run in progress.
 */
export interface PeriodicTask {
  start(): void;
  stop(): Promise<void>;
}

export function createPeriodicTask(run: () => Promise<void>, opts: { intervalMs: number; onError: (error: Error) => void }): PeriodicTask {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    running = run()
      .catch((error: Error) => opts.onError(error))
      .finally(() => {
        running = null;
        if (!stopped) timer = setTimeout(tick, opts.intervalMs);
      });
  };
  return {
    start() {
      stopped = false;
      tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
