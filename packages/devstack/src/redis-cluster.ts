import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aptInstall, has, waitFor } from './infra';

export interface RedisCluster {
  /** `host:port` of every master: the services' REDIS_CLUSTER_NODES. */
  nodes: string[];
  /** The first node's URL: the services' REDIS_URL (its password and TLS would apply to every node). */
  url: string;
  stop(): Promise<void>;
}

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

const cli = (port: number, ...args: string[]) => spawnSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' });

/**
 * A real Redis Cluster of `masters` redis-server processes on loopback (no replicas), built the way an
 * operator does: `--cluster-enabled yes` nodes joined by `redis-cli --cluster create`. Same settings as
 * `startRedis` otherwise (`noeviction`, AOF).
 */
export async function startRedisCluster(opts: { masters?: number } = {}): Promise<RedisCluster> {
  if (!has('redis-server')) aptInstall(['redis-server']);
  const masters = opts.masters ?? 3;
  const taken = new Set<number>();
  const ports: number[] = [];
  for (let i = 0; i < masters; i += 1) ports.push(await clusterPort(taken));
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(
      children.map((child) => {
        if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
        return new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        });
      }),
    );
  };
  try {
    for (const port of ports) {
      const dir = mkdtempSync(join(tmpdir(), `sb-redis-cluster-${port}-`));
      children.push(
        spawn(
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
            '5000',
            '--appendonly',
            'yes',
            '--save',
            '',
            '--maxmemory-policy',
            'noeviction',
          ],
          { stdio: 'ignore', detached: true },
        ),
      );
    }
    for (const port of ports) await waitFor(() => cli(port, 'ping').stdout?.trim() === 'PONG', `redis cluster node ${port}`);
    const nodes = ports.map((p) => `127.0.0.1:${p}`);
    const create = spawnSync('redis-cli', ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes'], { encoding: 'utf8' });
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
    // Every node must agree before a client's first CLUSTER SLOTS, or it may learn a partial map.
    for (const port of ports)
      await waitFor(() => /cluster_state:ok/.test(cli(port, 'cluster', 'info').stdout ?? ''), `redis cluster state ok on ${port}`, 30_000);
    return { nodes, url: `redis://${nodes[0]}`, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
