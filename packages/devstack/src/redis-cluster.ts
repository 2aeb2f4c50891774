import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aptInstall, has, waitFor } from './infra';

/** One live node of the cluster as `CLUSTER NODES` reports it, with its redis-server process id. */
export interface RedisClusterNode {
  host: string;
  port: number;
  pid: number;
}

export interface RedisClusterMaster extends RedisClusterNode {
  /** The slot ranges it serves, inclusive: `[first, last]`. */
  slots: Array<[number, number]>;
}

export interface RedisClusterReplica extends RedisClusterNode {
  /** The port of the master it replicates. */
  masterPort: number;
}

export interface RedisCluster {
  /** `host:port` of every master at start: the services' REDIS_CLUSTER_NODES. */
  nodes: string[];
  /** The first node's URL: the services' REDIS_URL (its password and TLS would apply to every node). */
  url: string;
  /** The masters now (after a failover, the promoted replicas), read from `CLUSTER NODES` on a live node. */
  masters(): Promise<RedisClusterMaster[]>;
  /** The replicas now, each with its master's port. */
  replicas(): Promise<RedisClusterReplica[]>;
  /** The master serving `key`'s slot now (`CLUSTER KEYSLOT`, so a hash tag counts as Redis counts it). */
  masterOf(key: string): Promise<RedisClusterMaster>;
  /** Sends `signal` to the node on `port` (SIGKILL a crash, SIGSTOP/SIGCONT a stall); resolves once a killed node has exited. */
  kill(port: number, signal?: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

/**
 * How long a node may be unreachable before the others count it failed and its replica is elected
 * (`cluster-node-timeout`): 2 s makes a test's failover take seconds, yet stays well above a loaded
 * machine's pauses, so no failover happens that the test did not cause.
 */
const CLUSTER_NODE_TIMEOUT_MS = 2000;

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port whose cluster-bus twin (port + 10000, Redis' fixed offset) is free too. */
async function clusterPort(taken: Set<number>): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    if (taken.has(port) || taken.has(port + 10_000)) continue;
    if ((await portIsFree(port)) && (await portIsFree(port + 10_000))) {
      taken.add(port);
      taken.add(port + 10_000);
      return port;
    }
  }
  throw new Error('no free port pair for a Redis Cluster node');
}

const cli = (port: number, ...args: string[]) => spawnSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8', timeout: 5000 });

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

interface NodeLine {
  port: number;
  id: string;
  role: 'master' | 'replica';
  failed: boolean;
  masterId: string;
  slots: Array<[number, number]>;
}

/** `CLUSTER NODES`: `<id> <ip:port@bus> <flags> <master-id> <ping> <pong> <epoch> <link> <slot>…` per line. */
function parseClusterNodes(text: string): NodeLine[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [id, address, flags, masterId, , , , , ...slotFields] = line.trim().split(' ');
      const port = Number(address.split('@')[0].split(':').pop());
      const flagSet = flags.split(',');
      const slots = slotFields
        .filter((s) => !s.startsWith('['))
        .map((s) => {
          const [first, last] = s.split('-').map(Number);
          return [first, last ?? first] as [number, number];
        });
      return {
        port,
        id,
        role: flagSet.includes('master') ? 'master' : 'replica',
        failed: flagSet.includes('fail') || flagSet.includes('fail?'),
        masterId,
        slots,
      };
    });
}

/**
 * A real Redis Cluster of `masters` redis-server processes on loopback, each with `replicasPerMaster`
 * replicas, built the way an operator does: `--cluster-enabled yes` nodes joined by
 * `redis-cli --cluster create --cluster-replicas N`. Resolves once every node reports `cluster_state:ok`
 * and every replica's link to its master is up (so a write can be acknowledged by `WAIT`). Same settings
 * as `startRedis` otherwise (`noeviction`, AOF).
 */
export async function startRedisCluster(opts: { masters?: number; replicasPerMaster?: number } = {}): Promise<RedisCluster> {
  if (!has('redis-server')) aptInstall(['redis-server']);
  const masters = opts.masters ?? 3;
  const replicasPerMaster = opts.replicasPerMaster ?? 0;
  const taken = new Set<number>();
  const ports: number[] = [];
  for (let i = 0; i < masters * (1 + replicasPerMaster); i += 1) ports.push(await clusterPort(taken));
  const children = new Map<number, ChildProcess>();
  const stop = async () => {
    await Promise.all(
      [...children.values()].map((child) => {
        if (exited(child)) return Promise.resolve();
        return new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          // A stopped (SIGSTOP) node would never act on SIGTERM.
          child.kill('SIGCONT');
          child.kill('SIGTERM');
        });
      }),
    );
  };
  const liveNodes = (): NodeLine[] => {
    for (const [port, child] of children) {
      if (exited(child)) continue;
      const answer = cli(port, 'cluster', 'nodes');
      if (answer.status === 0 && answer.stdout.trim() !== '') return parseClusterNodes(answer.stdout).filter((n) => !n.failed);
    }
    throw new Error('no live Redis Cluster node answers CLUSTER NODES');
  };
  const pidOf = (port: number) => children.get(port)?.pid ?? 0;
  const mastersNow = (): Promise<RedisClusterMaster[]> =>
    Promise.resolve().then(() =>
      liveNodes()
        .filter((n) => n.role === 'master' && n.slots.length > 0)
        .map((n) => ({ host: '127.0.0.1', port: n.port, pid: pidOf(n.port), slots: n.slots })),
    );
  try {
    for (const port of ports) {
      const dir = mkdtempSync(join(tmpdir(), `sb-redis-cluster-${port}-`));
      const child = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--dir',
          dir,
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          'nodes.conf',
          '--cluster-node-timeout',
          String(CLUSTER_NODE_TIMEOUT_MS),
          '--appendonly',
          'yes',
          '--save',
          '',
          '--maxmemory-policy',
          'noeviction',
        ],
        { stdio: 'ignore', detached: true },
      );
      children.set(port, child);
    }
    for (const port of ports) await waitFor(() => cli(port, 'ping').stdout?.trim() === 'PONG', `redis cluster node ${port}`);
    const all = ports.map((p) => `127.0.0.1:${p}`);
    // redis-cli makes the first `masters` nodes masters and spreads the rest over them as replicas.
    const create = spawnSync('redis-cli', ['--cluster', 'create', ...all, '--cluster-replicas', String(replicasPerMaster), '--cluster-yes'], {
      encoding: 'utf8',
    });
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
    // Every node must agree before a client's first CLUSTER SLOTS, or it may learn a partial map.
    for (const port of ports)
      await waitFor(() => /cluster_state:ok/.test(cli(port, 'cluster', 'info').stdout ?? ''), `redis cluster state ok on ${port}`, 30_000);
    const replicaPorts = () => ports.filter((port) => /role:slave/.test(cli(port, 'info', 'replication').stdout ?? ''));
    await waitFor(
      () => {
        const replicas = replicaPorts();
        return (
          replicas.length === masters * replicasPerMaster &&
          replicas.every((port) => /master_link_status:up/.test(cli(port, 'info', 'replication').stdout ?? ''))
        );
      },
      'every replica in sync with its master',
      30_000,
    );
    const nodes = (await mastersNow()).map((m) => `${m.host}:${m.port}`);
    return {
      nodes,
      url: `redis://${nodes[0]}`,
      masters: mastersNow,
      replicas: () =>
        Promise.resolve().then(() => {
          const lines = liveNodes();
          const portOfId = new Map(lines.map((n) => [n.id, n.port]));
          return lines
            .filter((n) => n.role === 'replica')
            .map((n) => ({ host: '127.0.0.1', port: n.port, pid: pidOf(n.port), masterPort: portOfId.get(n.masterId) ?? 0 }));
        }),
      async masterOf(key: string) {
        const live = [...children].find(([, child]) => !exited(child));
        if (!live) throw new Error('no live Redis Cluster node');
        const slot = Number(cli(live[0], 'cluster', 'keyslot', key).stdout.trim());
        const master = (await mastersNow()).find((m) => m.slots.some(([first, last]) => slot >= first && slot <= last));
        if (!master) throw new Error(`no master serves slot ${slot} of ${key}`);
        return master;
      },
      async kill(port: number, signal: NodeJS.Signals = 'SIGKILL') {
        const child = children.get(port);
        if (!child) throw new Error(`no Redis Cluster node on port ${port}`);
        if (exited(child)) return;
        const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill(signal);
        if (signal === 'SIGKILL' || signal === 'SIGTERM') await gone;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
