import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';

/**
 * Where the services' Redis is: one node by URL, or a Redis Cluster by its seed nodes
 * (`REDIS_CLUSTER_NODES`, docs/configuration.md#redis-cluster). A plain string is a single node's URL.
 */
export type RedisTarget = string | { redisUrl: string; redisClusterNodes?: readonly string[] };

/** `host:port` seed nodes, parsed; throws naming the entry that is not one. */
export function parseClusterNodes(nodes: readonly string[]): Array<{ host: string; port: number }> {
  return nodes.map((node) => {
    const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(node.trim());
    const port = match ? Number(match[2]) : 0;
    if (!match || port < 1 || port > 65_535) throw new Error(`"${node}" is not host:port`);
    return { host: match[1], port };
  });
}

/**
 * A single node's `Redis` or a `Cluster`. The cluster client is typed as `Redis` on purpose: ioredis
 * gives both the same command interface (commands, `multi`, `eval`, `defineCommand`, `status`, `quit`),
 * which is all our stores and BullMQ use, and keeping one type spares every store a union.
 */
function connect(target: RedisTarget, options: RedisOptions): Redis {
  const { redisUrl, redisClusterNodes = [] } = typeof target === 'string' ? { redisUrl: target } : target;
  if (redisClusterNodes.length === 0) return new Redis(redisUrl, options);
  // The URL's password (and TLS) apply to every node of the cluster.
  const url = new URL(redisUrl);
  const { enableOfflineQueue, retryStrategy, enableAutoPipelining, maxRetriesPerRequest: _perRequest, ...nodeOptions } = options;
  const clusterOptions: ClusterOptions = {
    enableOfflineQueue,
    enableAutoPipelining,
    clusterRetryStrategy: retryStrategy ? (times) => retryStrategy(times) ?? null : undefined,
    // BullMQ's blocking commands need `maxRetriesPerRequest: null` on the cluster too (its docs, "Redis Cluster").
    redisOptions: {
      ...nodeOptions,
      maxRetriesPerRequest: options.maxRetriesPerRequest,
      ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
      ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
    },
  };
  return new Cluster(parseClusterNodes(redisClusterNodes), clusterOptions) as unknown as Redis;
}

/**
 * Producer connection (gateway): no offline queue, so a command fails at once while Redis is down and
 * the gateway answers 503 instead of hanging (STYLE: failure is a first-class path).
 */
export function createProducerConnection(target: RedisTarget, extra: RedisOptions = {}): Redis {
  return connect(target, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    enableAutoPipelining: true,
    retryStrategy: (times) => Math.min(times * 100, 1_000),
    ...extra,
  });
}

/** Worker connection: BullMQ's blocking commands need `maxRetriesPerRequest: null`. */
export function createWorkerConnection(target: RedisTarget, extra: RedisOptions = {}): Redis {
  return connect(target, {
    maxRetriesPerRequest: null,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    ...extra,
  });
}
