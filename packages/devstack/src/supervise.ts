import type { ChildProcess } from 'node:child_process';

/**
 * How often `npm start` checks that the process that started it is still there. A supervisor that signals npm's
 * PID (systemd, Docker, CI, `kill $!`) can leave us reparented: npm runs the script through a shell, and a shell
 * killed by a signal does not pass it on. Half a second keeps the stack's stop well inside the services' shutdown
 * time (docs/running.md#stopping) and costs one getppid(2) per tick.
 */
const PARENT_CHECK_MS = 500;

export interface StackSupervisor {
  /** Stop the whole stack when `child` exits on its own: a stack with a missing piece stops as a whole. */
  watch(name: string, child: ChildProcess): void;
  /** Ends the watch: call it before a deliberate stop, so planned exits are not reported. */
  end(): void;
}

/**
 * Calls `stop(reason)` once, when the parent process (`opts.parent`, the one we had at start-up) goes away (we were reparented) or when a watched child
 * exits on its own, so that no part of the stack is left behind without the rest (docs/running.md#stopping).
 */
export function superviseStack(stop: (reason: string) => void, opts: { parent?: number } = {}): StackSupervisor {
  let watching = true;
  const parent = opts.parent ?? process.ppid;
  const offs: Array<() => void> = [];
  const end = () => {
    watching = false;
    clearInterval(timer);
    for (const off of offs.splice(0)) off();
  };
  const report = (reason: string) => {
    if (!watching) return;
    end();
    stop(reason);
  };
  const timer = setInterval(() => {
    if (process.ppid !== parent) report(`the process that started it (pid ${parent}) has gone`);
  }, PARENT_CHECK_MS);
  timer.unref();
  return {
    watch(name, child) {
      if (!watching) return;
      if (child.exitCode !== null || child.signalCode !== null) return report(`${name} (pid ${child.pid}) has exited`);
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => report(`${name} (pid ${child.pid}) exited with ${signal ?? `code ${code}`}`);
      child.once('exit', onExit);
      offs.push(() => child.off('exit', onExit));
    },
    end,
  };
}
