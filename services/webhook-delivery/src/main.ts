import { Queue, Worker, type JobsOptions } from 'bullmq';
import { getLogger } from '@switchboard/logger';
import { createWorkerConnection, QUEUES, type DeliverWebhookJob, type FanOutEventJob } from '@switchboard/queues';
import { installShutdown, MetricsRegistry, startHealthServer } from '@switchboard/runtime';
import {
  createDb,
  createEventPublisher,
  createEventsRepository,
  createWebhookDeliveriesRepository,
  createSecretCipher,
  createWebhookEndpointsRepository,
  migrate,
  resealSecrets,
} from '@switchboard/store';
import { describeConfig, loadConfig } from './config';
import { createBatchedStore } from './batched-store';
import { createEndpointSlots } from './endpoint-slots';
import { createWebhookSender } from './http/webhook-sender';
import { createDeliverWebhookProcessor, RetryLaterError } from './processors/deliver-webhook.processor';
import { createFanOutEventProcessor } from './processors/fan-out-event.processor';
import { createOutboxSweeper } from './outbox-sweeper';

const BACKOFF_TYPE = 'webhook-schedule';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = getLogger({ service: 'webhook-delivery', level: config.logLevel });
  logger.info('configuration', describeConfig(config));
  if (config.policy.allowPrivateNetworks || config.policy.allowHttp || config.policy.allowedHosts.length > 0) {
    logger.warn('target guard opened: for local runs and tests only', { policy: config.policy });
  }

  const db = createDb({ url: config.databaseUrl, poolSize: config.dbPoolSize });
  await migrate(db);
  const secrets = createSecretCipher(config.secretsKeys);
  const sealing = await resealSecrets(db, secrets);
  logger.info('secrets sealed under the active key', { resealed: sealing.resealed });
  if (sealing.unreadable.length > 0) logger.warn('secrets that do not open with SECRETS_ENCRYPTION_KEYS', { unreadable: sealing.unreadable });
  const redis = createWorkerConnection(config.redisUrl);
  const queueOpts = { connection: redis, prefix: config.queuePrefix };
  const fanoutQueue = new Queue<FanOutEventJob>(QUEUES.eventFanout, queueOpts);
  const deliveryQueue = new Queue<DeliverWebhookJob>(QUEUES.webhookDelivery, queueOpts);

  const metrics = new MetricsRegistry();
  const attempts = metrics.counter('webhook_attempts_total', 'Webhook delivery attempts by outcome');
  const latency = metrics.histogram('webhook_attempt_seconds', 'Webhook attempt latency');

  const events = createEventsRepository(db);
  const endpoints = createWebhookEndpointsRepository(db, secrets);
  const deliveries = createWebhookDeliveriesRepository(db, secrets);
  // Concurrent jobs share their store round trips: the store, not the CPU, bounds throughput.
  const batched = createBatchedStore({ events, deliveries });
  const clock = () => new Date();
  const deliveryJobOptions: JobsOptions = {
    delay: config.retryScheduleMs[0],
    // The schedule decides when to stop; the spare attempts absorb unexpected errors (store down).
    attempts: config.retryScheduleMs.length + 5,
    backoff: { type: BACKOFF_TYPE },
    removeOnComplete: { count: 10_000 },
    removeOnFail: { count: 50_000 },
  };

  const workerOpts = {
    connection: redis,
    prefix: config.queuePrefix,
    stalledInterval: config.stalledIntervalMs,
    lockDuration: config.lockDurationMs,
    // A crash mid-attempt must lead to a retry, not a failed job: deliveries survive repeated crashes.
    maxStalledCount: 100,
  };
  const fanoutWorker = new Worker<FanOutEventJob>(
    QUEUES.eventFanout,
    createFanOutEventProcessor({ events, deliveries, loadPlan: batched.loadPlan, createDeliveries: batched.createDeliveries, deliveryQueue, deliveryJobOptions, clock }),
    { ...workerOpts, concurrency: config.fanoutConcurrency },
  );
  const deliverProcessor = createDeliverWebhookProcessor({
    loadDelivery: batched.loadDelivery,
    deliveries,
    endpoints,
    send: createWebhookSender({
      policy: config.policy,
      timeoutMs: config.timeoutMs,
      responseLimitBytes: config.responseLimitBytes,
      excerptChars: config.excerptChars,
    }),
    slots: createEndpointSlots({ redis, prefix: config.queuePrefix, limit: config.endpointConcurrency, holdMs: config.timeoutMs + 5_000 }),
    retryScheduleMs: config.retryScheduleMs,
    jitterRatio: config.jitterRatio,
    disableAfterMs: config.disableAfterMs,
    saturationDelayMs: config.saturationDelayMs,
    clock,
    onAttempt: (outcome, ms) => {
      attempts.inc({ outcome });
      latency.observe({ outcome }, ms / 1000);
    },
  });
  const deliveryWorker = new Worker<DeliverWebhookJob>(QUEUES.webhookDelivery, deliverProcessor, {
    ...workerOpts,
    concurrency: config.concurrency,
    settings: {
      backoffStrategy: (_attempts: number, _type?: string, err?: Error) => (err instanceof RetryLaterError ? err.delayMs : 1_000),
    },
  });
  deliveryWorker.on('failed', (job, error) => {
    if (!job) return;
    const final = job.attemptsMade >= (job.opts.attempts ?? 1) || error.name === 'UnrecoverableError';
    if (final) {
      // The job gave up for a reason outside the schedule; the delivery must not stay pending forever.
      void deliveries.markFailed(job.data.delivery_id, job.data.generation, `worker_error: ${error.message}`, clock()).catch(() => undefined);
    }
    if (!(error instanceof RetryLaterError)) logger.warn('delivery job failed', { job_id: job.id, queue: QUEUES.webhookDelivery, attempt: job.attemptsMade, error: error.message });
  });
  fanoutWorker.on('failed', (job, error) => logger.error('fan-out job failed', { job_id: job?.id, queue: QUEUES.eventFanout, error: error.message }));
  for (const w of [fanoutWorker, deliveryWorker]) w.on('error', (error) => logger.error('worker error', { error: error.message }));

  const sweeper = createOutboxSweeper({
    events,
    publisher: createEventPublisher({ queue: fanoutQueue, db }),
    intervalMs: config.outboxSweepIntervalMs,
    ageMs: config.outboxSweepAgeMs,
    batchSize: config.outboxBatchSize,
    logger,
  });
  sweeper.start();

  const health = await startHealthServer({
    port: config.healthPort,
    metrics,
    ready: async () => {
      await db.ping();
      return (await redis.ping()) === 'PONG';
    },
  });
  installShutdown(logger, [
    { name: 'stop health server', run: () => new Promise((r) => health.close(() => r(undefined))) },
    { name: 'stop outbox sweeper', run: () => sweeper.stop() },
    { name: 'close workers (active jobs finish)', run: () => Promise.all([fanoutWorker.close(), deliveryWorker.close()]) },
    { name: 'close queues', run: () => Promise.all([fanoutQueue.close(), deliveryQueue.close()]) },
    { name: 'close redis', run: () => redis.quit() },
    { name: 'close database', run: () => db.close() },
  ]);
  logger.info('webhook-delivery ready', { health_port: config.healthPort });
}

main().catch((error: Error) => {
  process.stderr.write(`webhook-delivery failed to start: ${error.stack}\n`);
  process.exit(1);
});
