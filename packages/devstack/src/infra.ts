import { execSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Installs and starts what the run and test commands need, on loopback only (DEVELOPERS.md rule 1).
const log = (msg: string) => process.stderr.write(`[devstack] ${msg}\n`);

export function has(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

let aptUpdated = false;
/** Installs Debian packages as root, running `apt-get update` once per process before the first install. */
export function aptInstall(packages: string[]): void {
  if (process.getuid && process.getuid() !== 0) throw new Error(`${packages.join(', ')} missing and not root: install them first`);
  if (!aptUpdated) {
    log('apt-get update');
    execSync('apt-get update -qq', { stdio: 'inherit' });
    aptUpdated = true;
  }
  log(`apt-get install ${packages.join(' ')}`);
  execSync(`DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages.join(' ')}`, { stdio: 'inherit' });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await Promise.resolve(check()).catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export interface RedisServer {
  url: string;
  port: number;
  dir: string;
  child: ChildProcess;
  stop(): Promise<void>;
  /** SIGKILL: a crash, for the tests that prove AOF keeps accepted jobs. */
  kill(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));
}

/**
 * A private redis-server with AOF `appendfsync always` (an accepted message survives a Redis crash)
 * and `noeviction` (BullMQ keys must never be evicted). With `replicaOf` (a port on loopback) it is that
 * server's replica, and resolves once its link to the master is up.
 */
export async function startRedis(opts: { port?: number; dir?: string; replicaOf?: number } = {}): Promise<RedisServer> {
  if (!has('redis-server')) aptInstall(['redis-server']);
  const port = opts.port ?? (await freePort());
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'sb-redis-'));
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
      '--save',
      '',
      '--maxmemory-policy',
      'noeviction',
      ...(opts.replicaOf === undefined ? [] : ['--replicaof', '127.0.0.1', String(opts.replicaOf)]),
    ],
    // Its own process group: a terminal's Ctrl-C reaches the services first, and we stop Redis after them.
    { stdio: 'ignore', detached: true },
  );
  await waitFor(() => spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout?.trim() === 'PONG', 'redis-server');
  if (opts.replicaOf !== undefined)
    await waitFor(
      () => /master_link_status:up/.test(spawnSync('redis-cli', ['-p', String(port), 'info', 'replication'], { encoding: 'utf8' }).stdout ?? ''),
      `redis replica of ${opts.replicaOf} in sync`,
    );
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    child,
    stop: async () => {
      child.kill('SIGTERM');
      await exited(child);
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited(child);
    },
  };
}
