import { Queue, Worker, type Job } from 'bullmq';
import { getLogger } from '@switchboard/logger';
import {
  createProducerConnection,
  createWorkerConnection,
  defaultJobOptions,
  JOB_NAMES,
  QUEUES,
  TEMPLATE_JOB_NAMES,
  TEMPLATE_QUEUES,
  type SubmitTemplateJob,
  type ProviderCallbackJob,
  type SendMessageJob,
} from '@switchboard/queues';
import { installShutdown, startHealthServer } from '@switchboard/runtime';
import { createCustomerWindowCache, createDb, createInboundMessagesRepository, createEventPublisher, createMessageWritesRepository, createTemplatesRepository, migrate } from '@switchboard/store';
import { describeConfig, loadConfig } from './config';
import { createMediaCheck } from './media/media-check';
import { createDispatcherMetrics } from './metrics';
import { createInboundHandler } from './processors/inbound.handler';
import { createProviderCallbackProcessor } from './processors/provider-callback.processor';
import { createSendMessageProcessor } from './processors/send-message.processor';
import { createTemplateSubmitProcessor } from './processors/template-submit.processor';
import { createTemplateUpdateHandler } from './processors/template-update.handler';
import { createAdapterSets } from './upstreams/adapter-sets';
import { forwardSmsCallbacks } from './upstreams/sms-callbacks.forwarder';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = getLogger({ service: 'dispatcher', level: config.logLevel });
  logger.info('starting', describeConfig(config));

  const db = createDb({ url: config.databaseUrl, poolSize: config.dbPoolSize });
  const applied = await migrate(db);
  if (applied.length > 0) logger.info('migrations applied', { migrations: applied });
  const store = createMessageWritesRepository(db);
  const metrics = createDispatcherMetrics();
  const clock = Date.now;

  const adapters = createAdapterSets({ sandbox: config.sandbox, live: config.live, logger });
  const smsBound = new Set<unknown>();
  for (const sms of adapters.smsSessions) {
    void sms.ready().then(
      () => smsBound.add(sms),
      () => undefined,
    );
  }

  // Fails fast while Redis is down, so the SMSC keeps (and redelivers) a receipt that could not be queued.
  const producerConnection = createProducerConnection(config.redisUrl);
  const callbackQueue = new Queue<ProviderCallbackJob>(QUEUES.providerCallbacks, { connection: producerConnection, prefix: config.queuePrefix });
  const receiptJobOptions = defaultJobOptions({ attempts: config.receiptMatchAttempts, backoffMs: config.receiptRetryBackoffMs });
  for (const sms of adapters.smsSessions) forwardSmsCallbacks({ sms, queue: callbackQueue, clock, jobOptions: receiptJobOptions });
  // Events are committed with each change (the outbox); publishing hands them to webhook fan-out at once,
  // and webhook-delivery's sweeper publishes any that a crash left behind.
  const eventFanoutQueue = new Queue(QUEUES.eventFanout, { connection: producerConnection, prefix: config.queuePrefix });
  const eventPublisher = createEventPublisher({ queue: eventFanoutQueue, db });
  const publishEvents = (events: Parameters<typeof eventPublisher.publish>[0]) => eventPublisher.publish(events);

  const templates = createTemplatesRepository(db);
  const processSend = createSendMessageProcessor({
    store,
    providers: adapters.byMode,
    clock,
    logger,
    config: { reconcileTimeoutMs: config.reconcileTimeoutMs, throttleDelayMs: config.throttleDelayMs },
    metrics,
    publishEvents,
    checkContent: createMediaCheck({
      allowHttp: config.chatMediaAllowHttp,
      allowPrivateNetworks: config.mediaAllowPrivateNetworks,
      timeoutMs: config.mediaCheckTimeoutMs,
    }),
    templateBodies: async (accountId, t) => {
      const row = await templates.findByName(accountId, t.name, t.language);
      return row?.status === 'approved' ? row.body_text : undefined;
    },
  });
  const processCallback = createProviderCallbackProcessor({
    store,
    logger,
    config: { receiptMatchAttempts: config.receiptMatchAttempts },
    metrics,
    publishEvents,
    handlers: {
      inbound: createInboundHandler({
        inbound: createInboundMessagesRepository(db),
        // The gateway checks the 24 h window on this key (docs/chat.md); the row in PostgreSQL is the record.
        windows: createCustomerWindowCache({ redis: producerConnection, prefix: config.queuePrefix }),
        logger,
        clock,
        sandboxSender: config.sandboxSender,
        publishEvents,
      }),
      templateUpdates: createTemplateUpdateHandler({ templates, logger, clock }),
    },
  });
  const processTemplateSubmit = createTemplateSubmitProcessor({ templates, providers: adapters.byMode, logger, clock });

  const workerOptions = {
    prefix: config.queuePrefix,
    concurrency: config.concurrency,
    stalledInterval: config.stalledIntervalMs,
    lockDuration: config.lockDurationMs,
  };
  const sendConnection = createWorkerConnection(config.redisUrl);
  const callbackConnection = createWorkerConnection(config.redisUrl);
  const templateConnection = createWorkerConnection(config.redisUrl);
  const workers = [
    new Worker<SendMessageJob>(
      QUEUES.messageSend,
      async (job: Job<SendMessageJob>, token?: string) => {
        if (job.name !== JOB_NAMES.sendMessage) throw new Error(`unknown job ${job.name} on ${QUEUES.messageSend}`);
        await processSend(job, token);
      },
      { ...workerOptions, connection: sendConnection },
    ),
    new Worker<ProviderCallbackJob>(
      QUEUES.providerCallbacks,
      async (job: Job<ProviderCallbackJob>) => {
        if (job.name !== JOB_NAMES.providerCallback) throw new Error(`unknown job ${job.name} on ${QUEUES.providerCallbacks}`);
        await processCallback(job);
      },
      { ...workerOptions, connection: callbackConnection },
    ),
    new Worker<SubmitTemplateJob>(
      TEMPLATE_QUEUES.templateSubmit,
      async (job: Job<SubmitTemplateJob>) => {
        if (job.name !== TEMPLATE_JOB_NAMES.submitTemplate) throw new Error(`unknown job ${job.name} on ${TEMPLATE_QUEUES.templateSubmit}`);
        await processTemplateSubmit(job);
      },
      { ...workerOptions, connection: templateConnection },
    ),
  ];
  for (const worker of workers) {
    worker.on('failed', (job, error) =>
      logger.warn('job failed', { queue: worker.name, job_id: job?.id, attempt: job?.attemptsMade, error: error.message }),
    );
    worker.on('error', (error) => logger.error('worker error', { queue: worker.name, error: error.message }));
  }

  const health = await startHealthServer({
    port: config.healthPort,
    host: config.healthHost,
    metrics: metrics.registry,
    ready: async () => {
      await Promise.all([sendConnection.ping(), db.ping()]);
      return adapters.smsSessions.every((sms) => smsBound.has(sms));
    },
  });

  installShutdown(logger, [
    { name: 'health server', run: () => new Promise((resolve) => health.close(() => resolve(undefined))) },
    { name: 'workers', run: () => Promise.all(workers.map((w) => w.close())) },
    { name: 'smpp sessions', run: () => Promise.all(adapters.smsSessions.map((sms) => sms.close())) },
    { name: 'queues', run: () => Promise.all([callbackQueue.close(), eventFanoutQueue.close()]) },
    { name: 'redis', run: () => Promise.all([producerConnection, sendConnection, callbackConnection, templateConnection].map((c) => c.quit().catch(() => c.disconnect()))) },
    { name: 'database', run: () => db.close() },
  ]);
  logger.info('dispatcher ready', { health_port: config.healthPort, queues: [QUEUES.messageSend, QUEUES.providerCallbacks, TEMPLATE_QUEUES.templateSubmit] });
}

main().catch((error: unknown) => {
  process.stderr.write(`dispatcher failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
