import { chooseLogFormat, type LogFormat } from '@switchboard/logger';
import type { EnvReader } from './env';
import { retiredSettingProblems } from './retired-settings';

/** What every worker and the gateway read alike: the store, Redis, the queue prefix, logging. */
export interface CommonConfig {
  databaseUrl: string;
  redisUrl: string;
  /**
   * REDIS_CLUSTER_NODES: a Redis Cluster's seed nodes (`host:port`); empty for a single node at `redisUrl`,
   * whose password and TLS then apply to every node (docs/configuration.md#redis-cluster).
   */
  redisClusterNodes: string[];
  /**
   * BullMQ key prefix and the first part of every other Redis key; it carries a hash tag (`{sb}`) so that
   * every multi-key command and script stays in one Cluster slot (docs/storage-layout.md#redis-keys-and-cluster).
   * Tests give each run its own.
   */
  queuePrefix: string;
  /**
   * QUEUE_PARTITIONS: how many hash tags the queues and per-account keys are split over, so that a Redis Cluster
   * spreads them over its masters (docs/storage-layout.md#redis-keys-and-cluster). 1 keeps one tag and today's keys.
   * @defaultValue 1
   */
  queuePartitions: number;
  /**
   * SERVE_PARTITIONS: the partitions a worker process serves (`0,2`); empty serves every one. The gateway
   * accepts into every partition whatever this says. @defaultValue every partition
   */
  servePartitions: number[];
  /**
   * REDIS_MIN_REPLICAS_ACK: replicas that must hold a write (`WAIT`) before it is acknowledged outside Redis (the
   * gateway's 202, the dispatcher's deliver_sm_resp, an event marked published); 0 sends no WAIT
   * (docs/operations.md#redis-failover).
   */
  redisMinReplicasAck: number;
  logLevel: string;
  /** LOG_FORMAT json or pretty; unset: pretty when stdout is a TTY, else json (docs/configuration.md#logs). */
  logFormat: LogFormat;
  dbPoolSize: number;
  /**
   * Where spans go: OTEL_EXPORTER_OTLP_ENDPOINT + `/v1/traces`, as OpenTelemetry names the OTLP/HTTP path. Tracing (spans
   * and W3C `traceparent` from requests through jobs to webhooks) is on exactly when it is set, one decision in one
   * variable: an operator who wants traces says where they go (docs/observability.md#traces).
   */
  otlpTracesUrl?: string;
}

/** The default prefix: hash-tagged, so the same keys work on one Redis node and on a Redis Cluster. */
export const DEFAULT_QUEUE_PREFIX = '{sb}';

/** A key prefix whose keys share one Cluster slot: it holds a non-empty `{tag}`, the first one Redis hashes. */
export function hasHashTag(prefix: string): boolean {
  return /^[^{]*\{[^}]+\}/.test(prefix);
}

/** Problems of the Redis settings taken together (a cluster needs a hash-tagged prefix and valid seeds). */
function redisProblems(c: Pick<CommonConfig, 'redisClusterNodes' | 'queuePrefix'>): string[] {
  if (c.redisClusterNodes.length === 0) return [];
  const problems = c.redisClusterNodes.filter((n) => !/^\[?[^\]\s]+?\]?:\d{1,5}$/.test(n)).map((n) => `REDIS_CLUSTER_NODES: "${n}" is not host:port`);
  if (!hasHashTag(c.queuePrefix))
    problems.push(
      `QUEUE_PREFIX "${c.queuePrefix}" needs a hash tag such as {sb} when REDIS_CLUSTER_NODES is set (docs/storage-layout.md#redis-keys-and-cluster)`,
    );
  return problems;
}

/** The largest QUEUE_PARTITIONS (packages/queues/src/partitions.ts states the same bound). */
const MAX_QUEUE_PARTITIONS = 64;

function servePartitions(r: EnvReader, partitions: number): number[] {
  const listed = r.list('SERVE_PARTITIONS', []);
  const indexes = listed.map(Number);
  const bad = listed.filter((text, i) => !/^\d+$/.test(text.trim()) || indexes[i] >= partitions);
  if (bad.length > 0) r.problems.push(`SERVE_PARTITIONS: "${bad.join(',')}" is not a partition index below QUEUE_PARTITIONS (${partitions})`);
  return [...new Set(indexes)].sort((a, b) => a - b);
}

function otlpTracesUrl(r: EnvReader): string | undefined {
  const base = r.optionalString('OTEL_EXPORTER_OTLP_ENDPOINT');
  const url = base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
  if (url !== undefined && !/^https?:\/\/[^/\s]+/.test(url)) r.problems.push(`OTEL_EXPORTER_OTLP_ENDPOINT: "${url}" is not an http(s) URL`);
  return url;
}

/** Reads the shared variables of docs/configuration.md ("Shared") with their one set of defaults, and refuses retired ones. */
export function readCommonConfig(r: EnvReader): CommonConfig {
  const queuePartitions = r.int('QUEUE_PARTITIONS', 1, { min: 1, max: MAX_QUEUE_PARTITIONS });
  const config: CommonConfig = {
    databaseUrl: r.string('DATABASE_URL'),
    redisUrl: r.string('REDIS_URL', 'redis://127.0.0.1:6379'),
    redisClusterNodes: r.list('REDIS_CLUSTER_NODES', []),
    queuePrefix: r.string('QUEUE_PREFIX', DEFAULT_QUEUE_PREFIX),
    queuePartitions,
    servePartitions: servePartitions(r, queuePartitions),
    redisMinReplicasAck: r.int('REDIS_MIN_REPLICAS_ACK', 0, { min: 0, max: 16 }),
    logLevel: r.string('LOG_LEVEL', 'info'),
    logFormat: r.optionalString('LOG_FORMAT')
      ? r.parsed('LOG_FORMAT', (text) => chooseLogFormat(text, false), 'json or pretty')
      : chooseLogFormat(undefined, process.stdout.isTTY === true),
    dbPoolSize: r.int('DB_POOL_SIZE', 10, { min: 1, max: 1_000 }),
    otlpTracesUrl: otlpTracesUrl(r),
  };
  r.problems.push(...redisProblems(config), ...retiredSettingProblems(r.env));
  return config;
}

/** A connection URL fit for a log line: its credentials (user and password) become `***`. */
export function redactUrlCredentials(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}

/** The shared values for a start-up log: the URLs without their credentials. */
export function describeCommonConfig(c: CommonConfig): CommonConfig {
  return { ...c, databaseUrl: redactUrlCredentials(c.databaseUrl), redisUrl: redactUrlCredentials(c.redisUrl) };
}
