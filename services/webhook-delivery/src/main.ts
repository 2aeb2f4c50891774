import {
  createEventPublisher,
  createJobWorker,
  createWorkerConnection,
  enableTracing,
  flushTraces,
  EVENT_FANOUT_QUEUE,
  openQueue,
  reportQueueDepths,
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
import { RETRY_JITTER_RATIO } from '@switchboard/webhooks';
import { describeConfig, loadConfig } from './config';
import { createBatchedStore } from './batched-store';
import { createEndpointSlots, ENDPOINT_SLOT_LEASE_MS } from './endpoint-slots';
import { createWebhookSender, RESPONSE_EXCERPT_CHARS, RESPONSE_LIMIT_BYTES } from './http/webhook-sender';
import { createDeliveryAttempt } from './processors/delivery-attempt';
import { createDeliverWebhookHandler, SATURATION_DELAY_MS } from './processors/deliver-webhook.processor';
import { createFanOutEventProcessor } from './processors/fan-out-event.processor';
import { createOutboxSweeper, OUTBOX_BATCH_SIZE } from './outbox-sweeper';
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
    enableTracing(config.tracingEnabled, { service: 'webhook-delivery', otlpTracesUrl: config.otlpTracesUrl });
    const db = await openMigratedDb({ url: config.databaseUrl, poolSize: config.dbPoolSize }, logger);
    const secrets = createSecretCipher(config.secretsKeys);
    const sealing = await resealSecrets(db, secrets);
    logger.info('secrets sealed under the active key', { resealed: sealing.resealed });
    if (sealing.unreadable.length > 0) logger.warn('secrets that do not open with SECRETS_ENCRYPTION_KEYS', { unreadable: sealing.unreadable });
    // Commands issued in the same tick (slot acquires and releases, addBulk) leave in one write.
    const redis = createWorkerConnection(config, { enableAutoPipelining: true });
    const queueOpts = { connection: redis, prefix: config.queuePrefix };
    const fanoutQueue = openQueue(EVENT_FANOUT_QUEUE, queueOpts);
    const deliveryQueue = openQueue(WEBHOOK_DELIVERY_QUEUE, queueOpts);

    const metrics = new MetricsRegistry();
    const attempts = metrics.counter('switchboard_webhook_attempts_total', 'Webhook delivery attempts by outcome and endpoint class.');
    const latency = metrics.histogram('switchboard_webhook_attempt_seconds', 'Webhook attempt latency by outcome and endpoint class.');
    reportQueueDepths(metrics, [fanoutQueue, deliveryQueue]);

    // The fan-out and attempt statements run many times a second: parsed and planned once per connection. A pooler in
    // front of PostgreSQL must carry prepared statements (docs/operations.md#scale).
    const hotDb = withPreparedStatements(db);
    const events = createEventsRepository(hotDb);
    const endpoints = createWebhookEndpointsRepository(db, secrets);
    // Each attempt opens the secrets it reads; the same stored value opens to the same secret every time.
    const deliveries = createWebhookDeliveriesRepository(hotDb, withOpenedSecretsCache(secrets));
    // Concurrent jobs share their store round trips: the store, not the CPU, bounds throughput.
    const batched = createBatchedStore({ events, deliveries, deliveryQueue, retryScheduleMs: config.retryScheduleMs });
    const clock = () => new Date();
    const slots = createEndpointSlots({
      redis,
      prefix: config.queuePrefix,
      limit: config.endpointConcurrency,
      holdMs: config.timeoutMs + 5_000,
      leaseMs: ENDPOINT_SLOT_LEASE_MS,
    });

    const attemptDeps = {
      loadDelivery: batched.loadDelivery,
      storeSuccess: batched.storeSuccess,
      deliveries,
      endpoints,
      send: createWebhookSender({
        policy: config.policy,
        timeoutMs: config.timeoutMs,
        responseLimitBytes: RESPONSE_LIMIT_BYTES,
        excerptChars: RESPONSE_EXCERPT_CHARS,
      }),
      slots,
      retryScheduleMs: config.retryScheduleMs,
      jitterRatio: RETRY_JITTER_RATIO,
      disableAfterMs: config.disableAfterMs,
      clock,
      onAttempt: (outcome: 'delivered' | 'failed' | 'refused', ms: number, endpointClass: 'endpoint' | 'callback_url') => {
        attempts.inc({ outcome, endpoint_class: endpointClass });
        latency.observe({ outcome, endpoint_class: endpointClass }, ms / 1000);
      },
    };
    // The first attempt of each delivery is made by the fan-out job: one BullMQ job per event, not two.
    const fanOutEvent = createFanOutEventProcessor({
      events,
      deliveries,
      loadPlan: batched.loadPlan,
      createDeliveries: batched.createDeliveries,
      enqueue: batched.enqueueDeliveries,
      markPublished: batched.markPublished,
      attemptFirst: createDeliveryAttempt(attemptDeps),
      saturationDelayMs: SATURATION_DELAY_MS,
      deliveryQueue,
      retryScheduleMs: config.retryScheduleMs,
      clock,
    });
    const deliverWebhook = createDeliverWebhookHandler({ ...attemptDeps, saturationDelayMs: SATURATION_DELAY_MS });
    // A crash mid-attempt must lead to a retry, not a failed job: deliveries survive repeated crashes.
    const workerOptions = {
      redisUrl: config.redisUrl,
      redisClusterNodes: config.redisClusterNodes,
      prefix: config.queuePrefix,
      stalledIntervalMs: config.stalledIntervalMs,
      lockDurationMs: config.lockDurationMs,
      maxStalledCount: 100,
      logger,
      metrics,
      autoPipelining: true,
    };
    const workers = [
      createJobWorker(EVENT_FANOUT_QUEUE, { [EVENT_FANOUT_QUEUE.jobs.fanOutEvent]: fanOutEvent }, { ...workerOptions, concurrency: config.concurrency }),
      createJobWorker(
        WEBHOOK_DELIVERY_QUEUE,
        { [WEBHOOK_DELIVERY_QUEUE.jobs.deliverWebhook]: deliverWebhook },
        { ...workerOptions, concurrency: config.concurrency },
      ),
    ];

    const sweeper = createOutboxSweeper({
      events,
      publisher: createEventPublisher({ queue: fanoutQueue, outbox: events }),
      intervalMs: config.outboxSweepIntervalMs,
      ageMs: config.outboxSweepAgeMs,
      batchSize: OUTBOX_BATCH_SIZE,
      logger,
    });
    sweeper.start();
    const partitions = createPartitionMaintenance({ db, retentionMonths: config.retentionMonths, intervalMs: PARTITION_MAINTENANCE_INTERVAL_MS, logger });
    partitions.start();

    return {
      health: { port: config.healthPort, host: config.healthHost, metrics, ready: async () => (await Promise.all([db.ping(), redis.ping()]))[1] === 'PONG' },
      shutdown: [
        { name: 'stop outbox sweeper', run: () => sweeper.stop() },
        { name: 'stop partition maintenance', run: () => partitions.stop() },
        { name: 'close workers (active jobs finish)', run: () => Promise.all(workers.map((w) => w.close())) },
        { name: 'give back idle endpoint slots', run: () => slots.close() },
        { name: 'close queues', run: () => Promise.all([fanoutQueue.close(), deliveryQueue.close()]) },
        { name: 'close redis', run: () => redis.quit() },
        { name: 'close database', run: () => db.close() },
        { name: 'flush traces', run: flushTraces },
      ],
    };
  },
});
