import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, rmdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

const repoRoot = path.resolve(__dirname, '../../../..');
const lockDir = path.join(tmpdir(), 'switchboard-carrier-sim-build.lock');
/** A lock older than this belongs to a build that died; it is taken over. */
const STALE_LOCK_MS = 120_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed:\n${output}`))));
  });
}

/**
 * Builds the simulator once. Jest runs test files in parallel workers, and two `tsc -b` writing
 * the same dist/ could let one worker start a half-written main.js, so builds take a directory lock.
 */
export async function buildSim(): Promise<void> {
  for (;;) {
    try {
      await mkdir(lockDir);
      break;
    } catch {
      const info = await stat(lockDir).catch(() => undefined);
      if (info && Date.now() - info.mtimeMs > STALE_LOCK_MS) await rmdir(lockDir).catch(() => undefined);
      await sleep(100);
    }
  }
  try {
    await run(process.execPath, [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-b', 'services/carrier-sim']);
  } finally {
    await rmdir(lockDir).catch(() => undefined);
  }
}

export interface RunningSim {
  httpUrl: string;
  smppPort: number;
  /** Everything the process wrote to stderr (its logs), for failure messages. */
  logs(): string;
  stop(): Promise<void>;
}

/** PUT /sim/behaviour's fields (docs/sandbox.md#behaviour-at-run-time). */
export interface SimBehaviourFields {
  receipt_delay_ms?: number;
  enforce_chat_window?: boolean;
  receipt_backlog_max?: number;
}

/** Starts the built simulator with `env`, and once it is ready sets `behaviour` through PUT /sim/behaviour. */
export async function startSim(env: Record<string, string>, behaviour?: SimBehaviourFields): Promise<RunningSim> {
  const child: ChildProcess = spawn(process.execPath, [path.join(repoRoot, 'services/carrier-sim/dist/main.js')], {
    cwd: repoRoot,
    env: { ...process.env, PORT: '0', SIM_SMPP_PORT: '0', LOG_LEVEL: 'debug', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const ready = await new Promise<{ http_port: number; smpp_port: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`carrier-sim did not become ready:\n${stderr}`)), 15_000);
    const lines = readline.createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      try {
        const parsed = JSON.parse(line);
        if (parsed.event === 'ready') {
          clearTimeout(timer);
          resolve(parsed);
        }
      } catch {
        // not a JSON line; the sim writes only the ready line to stdout, so ignore anything else
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`carrier-sim exited with ${code} before ready:\n${stderr}`));
    });
  });

  const httpUrl = `http://127.0.0.1:${ready.http_port}`;
  if (behaviour) {
    const res = await fetch(`${httpUrl}/sim/behaviour`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(behaviour) });
    if (!res.ok) throw new Error(`PUT /sim/behaviour answered ${res.status}: ${await res.text()}`);
  }
  return {
    httpUrl,
    smppPort: ready.smpp_port,
    logs: () => stderr,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    },
  };
}
