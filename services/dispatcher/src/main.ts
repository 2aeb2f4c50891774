import {
  createJobWorker,
  createProducerConnection,
  createWorkerConnection,
  enableTracing,
  ensurePartitionLayout,
  flushTraces,
  MESSAGE_TIMERS_QUEUE,
  openReplicaAck,
  partitioned,
  PROVIDER_CALLBACKS_QUEUE,
  queuePartitions,
  reportQueueDepths,
  servedPartitions,
  TEMPLATE_SUBMIT_QUEUE,
} from '@switchboard/queues';
import { runWorkerService } from '@switchboard/runtime';
import { copyStateToPartitions } from '@switchboard/shared-state';
import { createCustomerWindowsRepository, createMessageWritesRepository, createSuppressionsRepository, openMigratedDb } from '@switchboard/store';
import { describeConfig, loadConfig } from './config';
import { createPendingAcceptances } from './dispatch/pending-acceptances';
import { createSendWorkers } from './dispatch/send-workers';
import { createDispatcherMetrics } from './metrics';
import { wireCallbackProcessors, wireCallbackQueues, type DispatcherPartition } from './wiring/callbacks.wiring';
import type { DispatcherContext } from './wiring/dispatcher-context';
import { wireEventPublishing } from './wiring/events.wiring';
import { wireSending } from './wiring/sending.wiring';
import { wireUpstreams } from './wiring/upstreams.wiring';

/** The dispatcher's composition root: each part is built in wiring/, its workers here (docs/architecture.md). */
runWorkerService({
  service: 'dispatcher',
  loadConfig,
  describeConfig,
  start: async ({ config, logger }) => {
    enableTracing({ service: 'dispatcher', otlpTracesUrl: config.otlpTracesUrl });
    const db = await openMigratedDb({ url: config.databaseUrl, poolSize: config.dbPoolSize }, logger);
    const redis = createProducerConnection(config);
    // Refuses to start while jobs of another QUEUE_PARTITIONS wait; on a change, rebuilds the hot path's copies first
    // (docs/operations.md#changing-queue-partitions). On a connection that waits for Redis: the producer's fails at once.
    const layoutRedis = createWorkerConnection(config);
    try {
      await ensurePartitionLayout({
        redis: layoutRedis,
        prefix: config.queuePrefix,
        partitions: config.queuePartitions,
        logger,
        copyState: (prefixOf) =>
          copyStateToPartitions({ redis: layoutRedis, prefixOf, suppressions: createSuppressionsRepository(db), windows: createCustomerWindowsRepository(db) }),
      });
    } finally {
      await layoutRedis.quit().catch(() => layoutRedis.disconnect());
    }
    const metrics = createDispatcherMetrics();
    // Every partition's parts, served or not: a callback may concern any account (docs/storage-layout.md#redis-keys-and-cluster).
    const all = queuePartitions(config.queuePrefix, config.queuePartitions);
    const replicaAcks = await Promise.all(
      all.map(({ prefix }) => openReplicaAck(config, { keyPrefix: prefix, minReplicas: config.redisMinReplicasAck, logger })),
    );
    const ctx: DispatcherContext = {
      config,
      logger,
      db,
      store: createMessageWritesRepository(db),
      metrics,
      redis,
      queueOptions: { connection: redis, prefix: config.queuePrefix },
      replicaAck: () => Promise.all(replicaAcks.map(({ ack }) => ack())).then(() => undefined),
      clock: Date.now,
    };
    const upstreams = wireUpstreams(ctx);
    // An SMS receipt that overtakes its acceptance waits for that write (docs/performance/dispatch.md#dispatch).
    const pendingAcceptances = createPendingAcceptances();
    // Each partition on a connection of its own: auto-pipelining groups script calls by SHA, not by key, and a
    // cluster refuses a pipeline whose keys live on two masters.
    const connections = all.length === 1 ? [redis] : all.map(() => createProducerConnection(config));
    const callbackQueues = wireCallbackQueues(ctx, upstreams, pendingAcceptances, connections);
    const partitions = partitioned(all, ({ prefix, index }): DispatcherPartition => {
      const connection = connections[index];
      const partitionCtx = { ...ctx, redis: connection, queueOptions: { connection, prefix }, replicaAck: replicaAcks[index].ack };
      const events = wireEventPublishing(partitionCtx);
      return { prefix, events, sending: wireSending(partitionCtx, upstreams, events, pendingAcceptances) };
    });
    const { providerCallback, submitTemplate } = wireCallbackProcessors(ctx, upstreams, partitions);

    const workerOptions = {
      redisUrl: config.redisUrl,
      redisClusterNodes: config.redisClusterNodes,
      prefix: config.queuePrefix,
      concurrency: config.concurrency,
      stalledIntervalMs: config.stalledIntervalMs,
      lockDurationMs: config.lockDurationMs,
      logger,
      metrics: metrics.registry,
    };
    const served = { ...workerOptions, partitions: servedPartitions(all, config.servePartitions) };
    const sendings = partitions.parts.map((p) => p.sending);
    reportQueueDepths(metrics.registry, [...sendings.flatMap((s) => [...s.sendLanes.all, s.timerQueue]), ...callbackQueues]);
    const workers = [
      ...createSendWorkers({
        partitions: sendings,
        options: served,
        concurrency: { transactional: config.concurrency, bulk: config.bulkConcurrency },
      }),
      createJobWorker(
        MESSAGE_TIMERS_QUEUE,
        ({ index }) => {
          const { messageTimer } = sendings[index];
          return { [MESSAGE_TIMERS_QUEUE.jobs.fallbackCheck]: messageTimer, [MESSAGE_TIMERS_QUEUE.jobs.expire]: messageTimer };
        },
        served,
      ),
      createJobWorker(PROVIDER_CALLBACKS_QUEUE, { [PROVIDER_CALLBACKS_QUEUE.jobs.providerCallback]: providerCallback }, served),
      createJobWorker(TEMPLATE_SUBMIT_QUEUE, { [TEMPLATE_SUBMIT_QUEUE.jobs.submitTemplate]: submitTemplate }, workerOptions),
    ];

    return {
      health: {
        port: config.healthPort,
        host: config.healthHost,
        metrics: metrics.registry,
        ready: async () => {
          await Promise.all([redis.ping(), db.ping()]);
          return upstreams.smsBound();
        },
      },
      shutdown: [
        { name: 'workers', run: () => Promise.all(workers.map((w) => w.close())) },
        { name: 'upstream state sync', run: () => upstreams.stopSync() },
        { name: 'lane turns', run: () => sendings.forEach((s) => s.laneTurns.stop()) },
        { name: 'smpp sessions', run: upstreams.closeSessions },
        {
          name: 'queues',
          run: () =>
            Promise.all([
              ...callbackQueues.map((q) => q.close()),
              ...partitions.parts.flatMap((p) => [p.events.eventFanoutQueue.close(), p.sending.timerQueue.close(), p.sending.sendLanes.close()]),
            ]),
        },
        { name: 'redis', run: () => Promise.all([...new Set([redis, ...connections])].map((r) => r.quit().catch(() => r.disconnect()))) },
        { name: 'replica acknowledgement', run: () => Promise.all(replicaAcks.map((r) => r.close())) },
        { name: 'database', run: () => db.close() },
        { name: 'traces', run: flushTraces },
      ],
      readyFields: { queues: workers.map((w) => w.queue) },
    };
  },
});
