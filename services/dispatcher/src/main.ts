import {
  createBatchingEventPublisher,
  createFairShare,
  createEventPublisher,
  createJobWorker,
  enqueueSendMessages,
  createProducerConnection,
  enableTracing,
  flushTraces,
  reportQueueDepths,
  EVENT_FANOUT_QUEUE,
  exponentialRetry,
  MESSAGE_TIMERS_QUEUE,
  openQueue,
  openSendLanes,
  PROVIDER_CALLBACKS_QUEUE,
  publishEventsOrLeaveInOutbox,
  TEMPLATE_SUBMIT_QUEUE,
} from '@switchboard/queues';
import { runWorkerService } from '@switchboard/runtime';
import { createCustomerWindowCache, createSuppressionCache, createUpstreamBreakerStore } from '@switchboard/shared-state';
import {
  createAccountSettingsRepository,
  createEventsRepository,
  createEventTargetsRepository,
  createInboundMessagesRepository,
  createMessageTimersRepository,
  createMessageWritesRepository,
  createNumbersRepository,
  createSuppressionsRepository,
  createTemplatesRepository,
  openMigratedDb,
} from '@switchboard/store';
import { describeConfig, loadConfig } from './config';
import { createBatchedSendStore } from './dispatch/batched-send-store';
import { createLaneTurns } from './dispatch/lane-turns';
import { createPendingAcceptances } from './dispatch/pending-acceptances';
import { createMessageTimers } from './dispatch/message-timers';
import { createMediaCheck } from './media/media-check';
import { createDispatcherMetrics } from './metrics';
import { createInboundHandler } from './processors/inbound.handler';
import { createMessageTimerProcessor } from './processors/message-timer.processor';
import { createScheduledExpiry } from './dispatch/scheduled-expiry';
import { createOptOutHandler } from './processors/opt-out.handler';
import { createProviderCallbackProcessor, RECEIPT_MATCH_ATTEMPTS, RECEIPT_RETRY_BACKOFF_MS } from './processors/provider-callback.processor';
import { createReceiptBatcher } from './processors/receipt-batcher';
import { createSendChunkProcessor } from './processors/send-chunk.processor';
import { createSendMessageProcessor } from './processors/send-message.processor';
import { createSendWorkers } from './dispatch/send-workers';
import { createTemplateSubmitProcessor } from './processors/template-submit.processor';
import { createTemplateUpdateHandler } from './processors/template-update.handler';
import { createAdapterSets } from './upstreams/adapter-sets';
import { coalesceBreakerStore } from './upstreams/coalesced-breakers';
import { createSenderRateLimiter } from './upstreams/sender-rate-limiter';
import { syncUpstreamState } from './upstreams/upstream-state.sync';
import { forwardSmsCallbacks, SMPP_RECEIPT_BATCH_MAX } from './upstreams/sms-callbacks.forwarder';
import { THROTTLE_DELAY_MS } from './dispatch/send-failure.policy';

runWorkerService({
  service: 'dispatcher',
  loadConfig,
  describeConfig,
  start: async ({ config, logger }) => {
    enableTracing(config.tracingEnabled, { service: 'dispatcher', otlpTracesUrl: config.otlpTracesUrl });
    const db = await openMigratedDb({ url: config.databaseUrl, poolSize: config.dbPoolSize }, logger);
    const store = createMessageWritesRepository(db);
    const metrics = createDispatcherMetrics();
    const clock = Date.now;

    // Fails fast while Redis is down, so the SMSC keeps (and redelivers) a receipt that could not be queued.
    const producerConnection = createProducerConnection(config);
    const breakers = coalesceBreakerStore(createUpstreamBreakerStore({ redis: producerConnection, prefix: config.queuePrefix, windowSize: config.breaker.windowSize }));
    const adapters = createAdapterSets({ sandbox: config.sandbox, live: config.live, logger, breakers, policy: config.breaker, clock, metrics, smpp: config.smpp });
    const stopUpstreamSync = syncUpstreamState({
      descriptions: adapters.descriptions,
      names: adapters.breakerNames,
      breakers,
      metrics,
      intervalMs: config.breakerGaugeRefreshMs,
      logger,
    });
    const smsBound = new Set<unknown>();
    for (const sms of adapters.smsSessions) {
      void sms.ready().then(
        () => smsBound.add(sms),
        () => undefined,
      );
    }

    const queueOptions = { connection: producerConnection, prefix: config.queuePrefix };
    const callbackQueue = openQueue(PROVIDER_CALLBACKS_QUEUE, queueOptions);
    const receiptRetry = exponentialRetry(RECEIPT_MATCH_ATTEMPTS, RECEIPT_RETRY_BACKOFF_MS);
    // SMS receipts that overtake their acceptance wait for it (docs/performance/dispatch.md#dispatch), at most one retry's backoff.
    const pendingAcceptances = createPendingAcceptances();
    for (const sms of adapters.smsSessions) {
      forwardSmsCallbacks({ sms, queue: callbackQueue, clock, retry: receiptRetry, maxReceiptsPerJob: SMPP_RECEIPT_BATCH_MAX, pendingAcceptances, maxAcceptanceWaitMs: RECEIPT_RETRY_BACKOFF_MS });
    }
    // Events are committed with each change (the outbox); publishing hands them to webhook fan-out at once,
    // and webhook-delivery's sweeper publishes any that a crash left behind.
    const eventFanoutQueue = openQueue(EVENT_FANOUT_QUEUE, queueOptions);
    const publishEvents = publishEventsOrLeaveInOutbox(
      createBatchingEventPublisher(createEventPublisher({ queue: eventFanoutQueue, outbox: { ...createEventsRepository(db), ...createEventTargetsRepository(db) } })),
      logger,
    );

    const templates = createTemplatesRepository(db);
    const accountSettings = createAccountSettingsRepository(db);
    const timerQueue = openQueue(MESSAGE_TIMERS_QUEUE, queueOptions);
    const messageTimers = createMessageTimers({
      queue: timerQueue,
      clock,
      defaultFallbackTimeoutSeconds: config.fallbackTimeoutSeconds,
      accountFallbackTimeout: async (accountId) => (await accountSettings.find(accountId))?.fallback_timeout_seconds ?? null,
    });
    const suppressionCache = createSuppressionCache({ redis: producerConnection, prefix: config.queuePrefix });
    // STOP/START confirmations are ordinary messages of the account (docs/routing.md#opt-out).
    const sendLanes = openSendLanes(queueOptions);
    const sendQueue = sendLanes.of('transactional');
    const fairShare = createFairShare({ redis: producerConnection, prefix: config.queuePrefix });
    const laneTurns = createLaneTurns({ fairShare, lanes: sendLanes, logger });
    const optOut = createOptOutHandler({
      suppressions: createSuppressionsRepository(db),
      cache: suppressionCache,
      numbers: createNumbersRepository(db),
      sendQueue,
      replies: config.optOutReplies,
      prices: config.prices,
      logger,
      clock,
    });
    const senderLimits = createSenderRateLimiter({ redis: producerConnection, prefix: config.queuePrefix, rates: config.senderRates });
    const sendMessage = createSendMessageProcessor({
      rcsResendDeduped: (mode) => adapters.rcsResendDeduped[mode],
      senderSlot: (mode, channel, sender, messageId, lane) => senderLimits.take(channel, adapters.rateLimitUpstream[mode][channel], sender, messageId, lane),
      timers: messageTimers,
      store: createBatchedSendStore(store, { pendingAcceptances }),
      suppressedChannels: suppressionCache.suppressedChannels,
      providers: adapters.byMode,
      clock,
      logger,
      config: { reconcileTimeoutMs: config.reconcileTimeoutMs, throttleDelayMs: THROTTLE_DELAY_MS },
      metrics,
      publishEvents,
      checkContent: createMediaCheck({
        allowHttp: config.chatMediaAllowHttp,
        allowPrivateNetworks: config.mediaAllowPrivateNetworks,
      }),
      templateBodies: async (accountId, t) => {
        const row = await templates.findByName(accountId, t.name, t.language);
        return row?.status === 'approved' ? row.body_text : undefined;
      },
    });
    const sendChunk = createSendChunkProcessor({
      sendMember: sendMessage.sendChunkMember,
      store,
      forgetChunkMembers: sendLanes.forgetChunkMembers,
      handOff: (placements) => enqueueSendMessages(sendLanes.of('bulk'), placements),
      fairShare,
      clock,
      logger,
    });
    const providerCallback = createProviderCallbackProcessor({
      receipts: createReceiptBatcher({ store }),
      logger,
      config: { receiptMatchAttempts: RECEIPT_MATCH_ATTEMPTS },
      metrics,
      publishEvents,
      handlers: {
        inbound: createInboundHandler({
          inbound: createInboundMessagesRepository(db),
          // The gateway checks the 24 h window on this key; the row in PostgreSQL is the record.
          windows: createCustomerWindowCache({ redis: producerConnection, prefix: config.queuePrefix }),
          logger,
          clock,
          sandboxSender: config.sandboxSender,
          publishEvents,
          optOut,
        }),
        templateUpdates: createTemplateUpdateHandler({ templates, logger, clock }),
      },
    });
    const messageTimer = createMessageTimerProcessor({
      timers: createMessageTimersRepository(db),
      store,
      continueSend: sendMessage.continueSend,
      clock,
      logger,
      publishEvents,
      metrics,
      scheduledExpiry: createScheduledExpiry(db, sendLanes),
    });
    const submitTemplate = createTemplateSubmitProcessor({ templates, providers: adapters.byMode, logger, clock });

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
    reportQueueDepths(metrics.registry, [...sendLanes.all, timerQueue, callbackQueue]);
    const workers = [
      ...createSendWorkers({
        sendMessage,
        sendChunk,
        startedIn: laneTurns.startedIn,
        options: workerOptions,
        concurrency: { transactional: config.concurrency, bulk: config.bulkConcurrency },
      }),
      createJobWorker(
        MESSAGE_TIMERS_QUEUE,
        { [MESSAGE_TIMERS_QUEUE.jobs.fallbackCheck]: messageTimer, [MESSAGE_TIMERS_QUEUE.jobs.expire]: messageTimer },
        workerOptions,
      ),
      createJobWorker(PROVIDER_CALLBACKS_QUEUE, { [PROVIDER_CALLBACKS_QUEUE.jobs.providerCallback]: providerCallback }, workerOptions),
      createJobWorker(TEMPLATE_SUBMIT_QUEUE, { [TEMPLATE_SUBMIT_QUEUE.jobs.submitTemplate]: submitTemplate }, workerOptions),
    ];

    return {
      health: {
        port: config.healthPort,
        host: config.healthHost,
        metrics: metrics.registry,
        ready: async () => {
          await Promise.all([producerConnection.ping(), db.ping()]);
          return adapters.smsSessions.every((sms) => smsBound.has(sms));
        },
      },
      shutdown: [
        { name: 'workers', run: () => Promise.all(workers.map((w) => w.close())) },
        { name: 'upstream state sync', run: async () => stopUpstreamSync() },
        { name: 'lane turns', run: async () => laneTurns.stop() },
        { name: 'smpp sessions', run: () => Promise.all(adapters.smsSessions.map((sms) => sms.close())) },
        { name: 'queues', run: () => Promise.all([callbackQueue.close(), eventFanoutQueue.close(), timerQueue.close(), sendLanes.close()]) },
        { name: 'redis', run: () => producerConnection.quit().catch(() => producerConnection.disconnect()) },
        { name: 'database', run: () => db.close() },
        { name: 'traces', run: flushTraces },
      ],
      readyFields: { queues: workers.map((w) => w.queue) },
    };
  },
});
