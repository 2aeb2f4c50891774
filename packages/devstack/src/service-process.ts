import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort, waitFor } from './infra';
import type { ServiceName } from './service-name';
import { SERVICE_NODE_FLAGS } from './service-node-flags';

export const REPO_ROOT = join(__dirname, '..', '..', '..');

export type { ServiceName } from './service-name';

export interface ServiceProcess {
  name: ServiceName;
  port: number;
  url: string;
  child: ChildProcess;
  logs(): string;
  /** SIGTERM and wait: the graceful path. */
  stop(): Promise<void>;
  /** A crash: SIGKILL by default. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

const LOG_LIMIT = 512 * 1024;

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));
}

function readyzStatus(url: string, ca: Buffer | undefined): Promise<number> {
  if (!ca) return fetch(`${url}/readyz`).then((res) => res.status);
  return new Promise((resolve, reject) => {
    httpsGet(`${url}/readyz`, { ca }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}

export interface StartServiceOptions {
  /** @defaultValue 30 s */
  readyTimeoutMs?: number;
  /**
   * Copies the service's output to ours, stdout to stdout and stderr to stderr, in whole lines so that the JSON log
   * lines of several services never interleave mid-line: what `npm start` shows. @defaultValue false: tests read
   * `logs()` instead, and print it when they fail
   */
  echo?: boolean;
}

/** Spawns `node <its V8 flags> services/<name>/dist/main.js` and resolves once its `/readyz` answers 200. */
export async function startService(name: ServiceName, env: Record<string, string>, opts: StartServiceOptions = {}): Promise<ServiceProcess> {
  // PORT is every process's own listen address: the gateway's API, a worker's health server, the simulator's HTTP.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS[name], join(REPO_ROOT, 'services', name, 'dist', 'main.js')], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The latest output, as chunks: appending must not copy everything kept so far on every line.
  const chunks: Buffer[] = [];
  let kept = 0;
  const collect = (chunk: Buffer) => {
    chunks.push(chunk);
    kept += chunk.length;
    while (kept - chunks[0].length >= LOG_LIMIT) kept -= (chunks.shift() as Buffer).length;
  };
  const output = () => Buffer.concat(chunks).toString();
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  if (opts.echo) {
    createInterface({ input: child.stdout }).on('line', (line) => process.stdout.write(`${line}\n`));
    createInterface({ input: child.stderr }).on('line', (line) => process.stderr.write(`${line}\n`));
  }
  // A gateway given TLS_CERT_FILE serves HTTPS only; its readiness is checked trusting that certificate.
  const ca = env.TLS_CERT_FILE ? readFileSync(env.TLS_CERT_FILE) : undefined;
  const url = `${ca ? 'https' : 'http'}://127.0.0.1:${port}`;
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error('exited');
        return (await readyzStatus(url, ca)) === 200;
      },
      `${name} /readyz`,
      opts.readyTimeoutMs ?? 30_000,
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${name} did not become ready (${(error as Error).message}); output:\n${output().slice(-4000)}`);
  }
  return {
    name,
    port,
    url,
    child,
    logs: output,
    stop: async () => {
      child.kill('SIGTERM');
      await exited(child);
    },
    kill: async (signal = 'SIGKILL') => {
      child.kill(signal);
      await exited(child);
    },
  };
}
