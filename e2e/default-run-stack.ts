import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * `npm start` as a supervisor runs it (systemd, Docker, CI, `npm start & kill $!`): npm is our child, with no
 * DATABASE_URL and no REDIS_URL, its state folder and gateway port given by SWITCHBOARD_HOME and PORT.
 * Collects every line it prints.
 */
export const REPO_ROOT = join(__dirname, '..');

export interface DefaultRun {
  /** npm itself. */
  child: ChildProcess;
  stdout: string[];
  stderr: string[];
  baseUrl: string;
  demoKey: string;
  /** The environment a CLI call needs to find this run: SWITCHBOARD_HOME and nothing of a store. */
  cliEnv: NodeJS.ProcessEnv;
  /** Every process below npm (its shell if any, start.mjs, services, Redis, PostgreSQL), for the orphan check. */
  descendantPids(): number[];
  /**
   * `signal` to npm's PID only, as a supervisor sends it (not to the process group, as a terminal's Ctrl-C does);
   * resolves with npm's exit code, or rejects if npm does not exit within `timeoutMs`.
   */
  stop(signal: NodeJS.Signals, timeoutMs: number): Promise<number | null>;
}

function withoutStore(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'LOG_LEVEL', 'QUEUE_PREFIX']) delete copy[name];
  return copy;
}

export function startDefaultRun(home: string, port: number, readyTimeoutMs: number): Promise<DefaultRun> {
  const env = { ...withoutStore(process.env), SWITCHBOARD_HOME: home, PORT: String(port) };
  const child = spawn('npm', ['start'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout: string[] = [];
  const stderr: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => stdout.push(line));
  createInterface({ input: child.stderr }).on('line', (line) => stderr.push(line));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const run: Omit<DefaultRun, 'baseUrl' | 'demoKey'> = {
    child,
    stdout,
    stderr,
    cliEnv: { ...withoutStore(process.env), SWITCHBOARD_HOME: home },
    descendantPids: () => descendantsOf(child.pid as number),
    stop: async (signal, timeoutMs) => {
      if (child.exitCode !== null) return child.exitCode;
      child.kill(signal);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`npm start did not exit within ${timeoutMs} ms of ${signal}`)), timeoutMs);
      });
      try {
        return await Promise.race([exit, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
  };

  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      const baseUrl = stdout.map((l) => /Base URL:\s+(\S+)/.exec(l)?.[1]).find(Boolean);
      const demoKey = stdout.map((l) => /Demo API key:\s+(\S+)/.exec(l)?.[1]).find(Boolean);
      if (!baseUrl || !demoKey || !stdout.some((l) => l.includes('Stop:'))) return;
      settle();
      resolve({ ...run, baseUrl, demoKey });
    }, 100);
    const fail = (error: Error) => {
      settle();
      child.kill('SIGINT');
      reject(new Error(`${error.message}\nstdout:\n${stdout.slice(-40).join('\n')}\nstderr:\n${stderr.slice(-40).join('\n')}`));
    };
    const timer = setTimeout(() => fail(new Error('no "Switchboard is running" banner in time')), readyTimeoutMs);
    const early = (code: number | null) => fail(new Error(`npm start exited with ${code} before it was ready`));
    child.once('exit', early);
    function settle() {
      clearInterval(poll);
      clearTimeout(timer);
      child.off('exit', early);
    }
  });
}

/** Every process below `root`, from one `ps` snapshot of parent links. */
function descendantsOf(root: number): number[] {
  const parents = new Map<number, number>();
  for (const line of spawnSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' }).stdout.split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (pid > 0) parents.set(pid, ppid);
  }
  const found: number[] = [];
  for (let frontier = [root]; frontier.length > 0;) {
    const next = [...parents].filter(([, ppid]) => frontier.includes(ppid)).map(([pid]) => pid);
    found.push(...next);
    frontier = next;
  }
  return found;
}

/** The pids of `pids` that are still running. */
export function stillRunning(pids: number[]): number[] {
  return pids.filter((pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  });
}

/** Lines that parse as a JSON log line at `error` level, from either stream. */
export function errorLines(lines: string[]): string[] {
  return lines.filter((line) => {
    if (!line.startsWith('{')) return false;
    try {
      return (JSON.parse(line) as { level?: unknown }).level === 'error';
    } catch {
      return false;
    }
  });
}

export interface Answer {
  status: number;
  body: string;
}

/** A small HTTP client over one keep-alive agent, so the load runs on a fixed set of connections. */
export function httpClient(baseUrl: string, connections: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const call = (method: string, path: string, key: string, body?: unknown): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        `${baseUrl}${path}`,
        {
          method,
          agent,
          headers: { authorization: `Bearer ${key}`, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
          res.on('error', reject);
        },
      );
      req.setTimeout(30_000, () => req.destroy(new Error(`${method} ${path} timed out`)));
      req.on('error', reject);
      req.end(payload);
    });
  return { call, close: () => agent.destroy() };
}
