import {
  createJobWorker,
  createWorkerConnection,
  enableTracing,
  ensurePartitionLayout,
  eventPublisherByAccount,
  flushTraces,
  EVENT_FANOUT_QUEUE,
  openReplicaAck,
  queuePartitions,
  reportQueueDepths,
  servedPartitions,
  WEBHOOK_DELIVERY_QUEUE,
} from '@switchboard/queues';
import { MetricsRegistry, runWorkerService } from '@switchboard/runtime';
import {
  createEventsRepository,
  createSecretCipher,
  createWebhookDeliveriesRepository,
  createWebhookEndpointsRepository,
  openMigratedDb,
  resealSecrets,
  withPreparedStatements,
} from '@switchboard/store';
import { describeConfig, loadConfig } from './config';
import { wireDeliveryPartition } from './delivery-partition';
import { createWebhookSender, RESPONSE_EXCERPT_CHARS, RESPONSE_LIMIT_BYTES } from './http/webhook-sender';
import { createOutboxSweeper, OUTBOX_BATCH_SIZE, OUTBOX_SWEEP_AGE_MS, OUTBOX_SWEEP_INTERVAL_MS } from './outbox-sweeper';
import { createPartitionMaintenance, PARTITION_MAINTENANCE_INTERVAL_MS } from './partition-maintenance';
import { withOpenedSecretsCache } from './opened-secrets-cache';

runWorkerService({
  service: 'webhook-delivery',
  loadConfig,
  describeConfig,
  start: async ({ config, logger }) => {
    if (config.policy.allowPrivateNetworks || config.policy.allowHttp || config.policy.allowedHosts.length > 0) {
      logger.warn('target guard opened: for local runs and tests only', { policy: config.policy });
    }
    enableTracing({ service: 'webhook-delivery', otlpTracesUrl: config.otlpTracesUrl });
    const db = await openMigratedDb({ url: config.databaseUrl, poolSize: config.dbPoolSize }, logger);
    const secrets = createSecretCipher(config.secretsKeys);
    const sealing = await resealSecrets(db, secrets);
    logger.info('secrets sealed under the active key', { resealed: sealing.resealed });
    if (sealing.unreadable.length > 0) logger.warn('secrets that do not open with SECRETS_ENCRYPTION_KEYS', { unreadable: sealing.unreadable });
    // Commands issued in the same tick (slot acquires and releases, addBulk) leave in one write.
    const redis = createWorkerConnection(config, { enableAutoPipelining: true });
    // Refuses to start while jobs of another QUEUE_PARTITIONS wait (docs/operations.md#changing-queue-partitions).
    await ensurePartitionLayout({ redis, prefix: config.queuePrefix, partitions: config.queuePartitions, logger });

    const metrics = new MetricsRegistry();
    const attempts = metrics.counter('switchboard_webhook_attempts_total', 'Webhook delivery attempts by outcome and endpoint class.');
    const latency = metrics.histogram('switchboard_webhook_attempt_seconds', 'Webhook attempt latency by outcome and endpoint class.');

    // The fan-out and attempt statements run many times a second: parsed and planned once per connection. A pooler in
    // front of PostgreSQL must carry prepared statements (docs/operations.md#scale).
    const hotDb = withPreparedStatements(db);
    const events = createEventsRepository(hotDb);
    const shared = {
      config,
      redis,
      events,
      endpoints: createWebhookEndpointsRepository(db, secrets),
      // Each attempt opens the secrets it reads; the same stored value opens to the same secret every time.
      deliveries: createWebhookDeliveriesRepository(hotDb, withOpenedSecretsCache(secrets)),
      send: createWebhookSender({
        policy: config.policy,
        timeoutMs: config.timeoutMs,
        responseLimitBytes: RESPONSE_LIMIT_BYTES,
        excerptChars: RESPONSE_EXCERPT_CHARS,
      }),
      onAttempt: (outcome: 'delivered' | 'failed' | 'refused', ms: number, endpointClass: 'endpoint' | 'callback_url') => {
        attempts.inc({ outcome, endpoint_class: endpointClass });
        latency.observe({ outcome, endpoint_class: endpointClass }, ms / 1000);
      },
    };
    // Every partition's queues (the sweeper publishes for any account); workers for the served ones (docs/storage-layout.md#redis-keys-and-cluster).
    const all = queuePartitions(config.queuePrefix, config.queuePartitions);
    // Each partition on a connection of its own: auto-pipelining groups script calls by SHA, not by key, and a
    // cluster refuses a pipeline whose keys live on two masters.
    const connections = all.length === 1 ? [redis] : all.map(() => createWorkerConnection(config, { enableAutoPipelining: true }));
    const replicaAcks = await Promise.all(
      all.map(({ prefix }) => openReplicaAck(config, { keyPrefix: prefix, minReplicas: config.redisMinReplicasAck, logger })),
    );
    const partitions = all.map(({ prefix, index }) =>
      wireDeliveryPartition({ ...shared, redis: connections[index], replicaAck: replicaAcks[index].ack }, prefix),
    );
    reportQueueDepths(
      metrics,
      partitions.flatMap((p) => [p.fanoutQueue, p.deliveryQueue]),
    );
    // A crash mid-attempt must lead to a retry, not a failed job: deliveries survive repeated crashes.
    const workerOptions = {
      redisUrl: config.redisUrl,
      redisClusterNodes: config.redisClusterNodes,
      prefix: config.queuePrefix,
      partitions: servedPartitions(all, config.servePartitions),
      stalledIntervalMs: config.stalledIntervalMs,
      lockDurationMs: config.lockDurationMs,
      maxStalledCount: 100,
      logger,
      metrics,
      autoPipelining: true,
      concurrency: config.concurrency,
    };
    const workers = [
      createJobWorker(EVENT_FANOUT_QUEUE, ({ index }) => ({ [EVENT_FANOUT_QUEUE.jobs.fanOutEvent]: partitions[index].fanOutEvent }), workerOptions),
      createJobWorker(
        WEBHOOK_DELIVERY_QUEUE,
        ({ index }) => ({ [WEBHOOK_DELIVERY_QUEUE.jobs.deliverWebhook]: partitions[index].deliverWebhook }),
        workerOptions,
      ),
    ];

    const sweeper = createOutboxSweeper({
      events,
      publisher: eventPublisherByAccount(partitions.map((p) => p.publisher)),
      intervalMs: OUTBOX_SWEEP_INTERVAL_MS,
      ageMs: OUTBOX_SWEEP_AGE_MS,
      batchSize: OUTBOX_BATCH_SIZE,
      logger,
    });
    sweeper.start();
    const monthMaintenance = createPartitionMaintenance({ db, retentionMonths: config.retentionMonths, intervalMs: PARTITION_MAINTENANCE_INTERVAL_MS, logger });
    monthMaintenance.start();

    return {
      health: { port: config.healthPort, host: config.healthHost, metrics, ready: async () => (await Promise.all([db.ping(), redis.ping()]))[1] === 'PONG' },
      shutdown: [
        { name: 'stop outbox sweeper', run: () => sweeper.stop() },
        { name: 'stop partition maintenance', run: () => monthMaintenance.stop() },
        { name: 'close workers (active jobs finish)', run: () => Promise.all(workers.map((w) => w.close())) },
        { name: 'give back idle endpoint slots', run: () => Promise.all(partitions.map((p) => p.slots.close())) },
        { name: 'close queues', run: () => Promise.all(partitions.flatMap((p) => [p.fanoutQueue.close(), p.deliveryQueue.close()])) },
        { name: 'close redis', run: () => Promise.all([...new Set([redis, ...connections])].map((r) => r.quit())) },
        { name: 'close replica acknowledgement', run: () => Promise.all(replicaAcks.map((r) => r.close())) },
        { name: 'close database', run: () => db.close() },
        { name: 'flush traces', run: flushTraces },
      ],
    };
  },
});
