import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import { getLogger, type Logger } from '@switchboard/logger';
import {
  createProducerConnection,
  enableTracing,
  ensurePartitionLayout,
  flushTraces,
  EVENT_FANOUT_QUEUE,
  openQueue,
  openReplicaAck,
  openSendLanes,
  PROVIDER_CALLBACKS_QUEUE,
  reportQueueDepths,
  jobAdderByJobId,
  queuePartitions,
  TEMPLATE_SUBMIT_QUEUE,
  untilReady,
} from '@switchboard/queues';
import { createHttpDrain, installShutdown, MetricsRegistry } from '@switchboard/runtime';
import { copyStateToPartitions } from '@switchboard/shared-state';
import { createCustomerWindowsRepository, createDb, createSecretCipher, createSuppressionsRepository, migrate, resealSecrets } from '@switchboard/store';
import { createApp, createPartitionedApp } from './app';
import { createGatewayAuthenticator } from './areas/gateway-context';
import { createDependencyGuard } from './http/dependency-guard';
import { createClusterStarting } from './cluster/cluster-readiness';
import { createMetricsScrape } from './cluster/worker-metrics';
import { describeConfig, loadConfig, type GatewayConfig } from './config';
import { answerClientError } from './http/client-error.handler';
import { createGatewayServer, reloadCertificateOnSighup } from './http/gateway-server';

/** Logs a Redis outage once when it starts and once when it ends, not on every reconnect attempt. */
function watchRedis(redis: Redis, logger: Logger): void {
  let down = false;
  redis.on('error', (error: Error) => {
    if (!down) logger.warn('redis unavailable', { error: error.message });
    down = true;
  });
  redis.on('ready', () => {
    if (down) logger.info('redis available again');
    down = false;
  });
}

/**
 * A partition's own producer connection. ioredis auto-pipelining groups a script call (EVALSHA) by its SHA, not by its
 * keys: on a Redis Cluster one connection would put the same BullMQ script for two partitions on different masters into
 * one pipeline, which the client refuses. One connection per partition keeps each pipeline within one partition's slot.
 */
async function partitionConnection(config: GatewayConfig, logger: Logger): Promise<Redis> {
  const redis = createProducerConnection(config, { commandTimeout: config.redisCommandTimeoutMs });
  watchRedis(redis, logger);
  await untilReady(redis, config.startupTimeoutMs);
  return redis;
}

/** One whole gateway process: the only one, or one cluster worker of several (main.ts decides). */
export async function serveGateway(): Promise<void> {
  const config = loadConfig();
  const logger = getLogger({ service: 'api-gateway', level: config.logLevel, format: config.logFormat });
  logger.info('configuration', { config: describeConfig(config) });

  const db = createDb({ url: config.databaseUrl, poolSize: config.dbPoolSize });
  const applied = await migrate(db);
  logger.info('store ready', { migrations_applied: applied });
  // Plaintext from before encryption, or values under a retired key (docs/webhooks.md, "Secrets at rest").
  const sealing = await resealSecrets(db, createSecretCipher(config.secretsKeys));
  logger.info('secrets sealed under the active key', { resealed: sealing.resealed });
  if (sealing.unreadable.length > 0) logger.warn('secrets that do not open with SECRETS_ENCRYPTION_KEYS', { unreadable: sealing.unreadable });

  enableTracing({ service: 'api-gateway', otlpTracesUrl: config.otlpTracesUrl });
  const redis = createProducerConnection(config, { commandTimeout: config.redisCommandTimeoutMs });
  watchRedis(redis, logger);
  await untilReady(redis, config.startupTimeoutMs);
  // Refuses to start while jobs of another QUEUE_PARTITIONS wait; on a change, rebuilds the hot path's copies first
  // (docs/operations.md#changing-queue-partitions).
  await ensurePartitionLayout({
    redis,
    prefix: config.queuePrefix,
    partitions: config.queuePartitions,
    logger,
    copyState: (prefixOf) =>
      copyStateToPartitions({ redis, prefixOf, suppressions: createSuppressionsRepository(db), windows: createCustomerWindowsRepository(db) }),
  });
  const shared = { connection: redis, prefix: config.queuePrefix };
  // Templates are submitted upstream from the store, a few a day: on the shared tag.
  const templateQueue = openQueue(TEMPLATE_SUBMIT_QUEUE, shared);
  const partitions = await Promise.all(
    queuePartitions(config.queuePrefix, config.queuePartitions).map(async ({ prefix }, _i, all) => {
      const connection = all.length === 1 ? redis : await partitionConnection(config, logger);
      const replicas = await openReplicaAck(config, { keyPrefix: prefix, minReplicas: config.redisMinReplicasAck, logger });
      return {
        prefix,
        redis: connection,
        replicas,
        replicaAck: replicas.ack,
        sendLanes: openSendLanes({ connection, prefix }),
        callbackQueue: openQueue(PROVIDER_CALLBACKS_QUEUE, { connection, prefix }),
        eventFanoutQueue: openQueue(EVENT_FANOUT_QUEUE, { connection, prefix }),
      };
    }),
  );
  const queues = [templateQueue, ...partitions.flatMap((p) => [...p.sendLanes.all, p.callbackQueue, p.eventFanoutQueue])];
  // Callbacks arrive without an account: each to the partition of its job id, a digest of what the upstream signed.
  const callbackJobs = jobAdderByJobId(partitions.map((p) => p.callbackQueue));
  for (const queue of queues) {
    // Outages are already logged by watchRedis; an unhandled 'error' event would crash the process.
    queue.on('error', () => undefined);
    await queue.waitUntilReady();
  }

  const metrics = new MetricsRegistry();
  reportQueueDepths(metrics, queues);
  const common = {
    config,
    logger,
    db,
    redis,
    callbackJobs,
    templateQueue,
    metrics,
    scrapeMetrics: createMetricsScrape(metrics),
    // A callback's job goes to the partition of its job id, not its account's: confirm every partition's writes.
    callbackReplicaAck: () => Promise.all(partitions.map((p) => p.replicaAck())).then(() => undefined),
    isStarting: createClusterStarting(),
    isDraining: () => http.isDraining(),
  };
  // One partition: one app, as without partitions. More: one app each, behind a front door that picks by account.
  const app =
    partitions.length === 1
      ? createApp({ ...common, ...partitions[0] })
      : createPartitionedApp(common, partitions, createGatewayAuthenticator(db, createDependencyGuard(logger), Date.now));
  const gatewayServer = createGatewayServer(app, config.tls, logger);
  const { server } = gatewayServer;
  const http = createHttpDrain(server, { idleGraceMs: config.drainIdleGraceMs, deadlineMs: config.drainDeadlineMs });
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const { port } = server.address() as AddressInfo;

  reloadCertificateOnSighup(gatewayServer);
  installShutdown(logger, [
    { name: 'http', run: () => http.drain() },
    { name: 'queues', run: () => Promise.all(queues.map((q) => q.close())) },
    {
      name: 'redis',
      run: () =>
        Promise.all([
          ...[...new Set([redis, ...partitions.map((p) => p.redis)])].map((r) => r.quit().catch(() => r.disconnect())),
          ...partitions.map((p) => p.replicas.close()),
        ]),
    },
    { name: 'store', run: () => db.close() },
    { name: 'traces', run: flushTraces },
  ]);
  const url = `${gatewayServer.scheme}://${config.host}:${port}`;
  // With several workers the primary logs "ready" once, when all of them listen.
  if (cluster.isWorker) logger.info('gateway worker ready', { url, worker_pid: process.pid });
  else logger.info('ready', { event: 'ready', url });
}
