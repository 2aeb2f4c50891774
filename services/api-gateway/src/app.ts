import type { Queue } from 'bullmq';
import express, { type Express } from 'express';
import type { Redis } from 'ioredis';
import { createPooledIdGenerator, SANDBOX_WINDOW_ACCOUNT, type Scope } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';
import type { MetricsRegistry } from '@switchboard/runtime';
import { createChatMessageRequestValidator, createMessageRequestValidator, createTemplateCreateValidator } from '@switchboard/schemas';
import { createCustomerWindowCache, createSuppressionCache } from '@switchboard/shared-state';
import {
  createAccountSettingsRepository,
  createApiKeysRepository,
  createInboundMessagesRepository,
  createMessageReadsRepository,
  createNumbersRepository,
  createSecretCipher,
  createTemplatesRepository,
  type Db,
} from '@switchboard/store';
import { createApiKeyAuthenticator } from './auth/api-key.authenticator';
import { authenticate, requireScope } from './auth/authenticate.middleware';
import type { GatewayConfig } from './config';
import { createAllowedMethods } from './http/allowed-methods';
import { createDependencyGuard } from './http/dependency-guard';
import { errorMiddleware, notFoundHandler } from './http/error.middleware';
import { httpMetricsMiddleware } from './http/http-metrics.middleware';
import { queueBoardRouter } from './admin/queue-board.router';
import { traceContextMiddleware } from './http/trace-context.middleware';
import { jsonBody } from './http/json-body.middleware';
import { requestIdMiddleware } from './http/request-id.middleware';
import { requireTls } from './http/require-tls.middleware';
import { securityHeaders } from './http/security-headers.middleware';
import { createIdempotencyStore } from './idempotency/idempotency.store';
import { createChatSendGate } from './chat/chat-send.gate';
import { createMessageAcceptance } from './messages/message-acceptance';
import { createBatchSending } from './batches/batch-sending';
import { createFairShare, MESSAGE_TIMERS_QUEUE, openQueue, type SendLanes } from '@switchboard/queues';
import { createSuppressionGate } from './messages/suppression.gate';
import { createQuietHoursSchedule } from './messages/quiet-hours.schedule';
import { createSuppressionsRouter } from './routes/suppressions.route';
import { rateLimit, rateLimitInSendScript } from './rate-limit/rate-limit.middleware';
import { createRateLimiter, createSlidingWindowCalls } from './rate-limit/rate-limiter';
import { apiDocsRouter } from './routes/api-docs.route';
import { createMessageReadHandlers } from './routes/message-reads.route';
import { chatMessageRequestReader, chatMessagesRouter, CHAT_IDEMPOTENCY_ROUTE } from './routes/chat-messages.route';
import { createInboundReadHandlers, inboundRouter } from './routes/inbound.route';
import { createSendMessageHandler, messagesRouter } from './routes/messages.route';
import { createTemplateHandlers, templatesRouter } from './routes/templates.route';
import { createAccountRouter } from './routes/account.route';
import { createEventsRouter } from './routes/events.route';
import { operationsRouter } from './routes/operations.route';
import { providerCallbacksRouter } from './routes/provider-callbacks.route';
import { createUpstreamsRouter } from './routes/upstreams.route';
import { createWebhooksRouter } from './routes/webhooks.route';
import { createLoadingCache } from './support/loading-cache';
import { createConsoleRouter } from './console/console.router';
import { createVoiceRouters } from './voice/voice-routes';

export interface GatewayDeps {
  config: Readonly<GatewayConfig>;
  logger: Logger;
  db: Db;
  redis: Redis;
  sendLanes: SendLanes;
  callbackQueue: Queue;
  /** `template-submit`: created templates wait here for the dispatcher to submit them upstream. */
  templateQueue: Queue;
  eventFanoutQueue: Queue;
  metrics: MetricsRegistry;
  /** What `/metrics` serves; with cluster workers, every worker's series merged (cluster/worker-metrics.ts). @defaultValue metrics.collect */
  scrapeMetrics?: () => Promise<string>;
  /** True once shutdown began; `/readyz` then answers 503. */
  isDraining?: () => boolean;
  /** True while the cluster's other workers are still starting; `/readyz` then answers 503 (cluster/cluster-readiness.ts). */
  isStarting?: () => boolean;
  clock?: () => number;
}

/** Builds the express application from its dependencies; `main.ts` owns their lifecycle. */
export function createApp({ config, logger, db, redis, sendLanes, callbackQueue, templateQueue, eventFanoutQueue, metrics, scrapeMetrics, isDraining, isStarting, clock = Date.now }: GatewayDeps): Express {
  const guard = createDependencyGuard(logger);
  const newMessageId = createPooledIdGenerator();
  const authenticator = createApiKeyAuthenticator({
    findByHash: createApiKeysRepository(db).findByHash,
    guard,
    ttlMs: config.keyCacheTtlMs,
    clock,
  });
  const numbers = createNumbersRepository(db);
  const accountNumbers = createLoadingCache({
    load: (accountId) => guard('store', () => numbers.listForAccount(accountId)),
    ttlMs: config.numbersCacheTtlMs,
    clock,
  });
  const rateLimiter = createRateLimiter(redis, config.queuePrefix);
  const slidingWindow = createSlidingWindowCalls(config.queuePrefix);
  const limiter = rateLimit(rateLimiter, config.rateLimitPerSecond, guard);
  const authenticated = (scope: Scope) => [authenticate(authenticator), limiter, requireScope(scope)];
  // Message creation settles its rate-limit decision in the handler (createSendMessageHandler).
  const authenticatedSend = [authenticate(authenticator), rateLimitInSendScript(rateLimiter, config.rateLimitPerSecond, guard), requireScope('messages:write')];

  const messageReads = createMessageReadsRepository(db);
  const reads = createMessageReadHandlers({ reads: messageReads, queue: sendLanes, guard });
  const templates = createTemplatesRepository(db);
  // Template sends read the definition; a short cache keeps a burst of sends off the store (docs/chat.md#sending-a-template).
  const templateFacts = createLoadingCache({
    load: (key) => {
      const [accountId, name, language] = key.split('\n');
      return guard('store', () => templates.findByName(accountId, name, language));
    },
    ttlMs: config.templateCacheTtlMs,
    clock,
  });
  const customerWindows = createCustomerWindowCache({ redis, prefix: config.queuePrefix });
  const chatGate = createChatSendGate({
    findTemplate: (accountId, name, language) => templateFacts(`${accountId}\n${name}\n${language}`),
    // A test key without a chat number sends from the shared sandbox sender, whose replies no account owns.
    windowIsOpen: async (window) =>
      (await customerWindows.isOpen(window)) ||
      (window.sender === config.sandboxSender && (await customerWindows.isOpen({ ...window, accountId: SANDBOX_WINDOW_ACCOUNT }))),
    guard,
  });
  const accountSettings = createAccountSettingsRepository(db);
  // Read on marketing sends; cached like the numbers so the send path adds no store round trip.
  const accountQuietHours = createLoadingCache({ load: async (accountId) => (await accountSettings.find(accountId))?.quiet_hours ?? null, ttlMs: config.numbersCacheTtlMs, clock });
  const suppressionCache = createSuppressionCache({ redis, prefix: config.queuePrefix });
  const timersQueue = openQueue(MESSAGE_TIMERS_QUEUE, { connection: redis, prefix: config.queuePrefix });
  // A Redis outage reaches each request through the guard; unheard, the queue's own 'error' event would crash the process.
  timersQueue.on('error', () => undefined);
  const acceptanceDeps = {
    lanes: sendLanes,
    fairShare: createFairShare({ redis, prefix: config.queuePrefix }),
    accountNumbers,
    guard,
    prices: config.prices,
    sandboxSender: config.sandboxSender,
    chatGate,
    suppressionGate: createSuppressionGate({ suppressedChannels: suppressionCache.suppressedChannels, guard }),
    quietHoursDelay: createQuietHoursSchedule({
      accountQuietHours,
      templateCategory: async (accountId, t) => (await templateFacts(`${accountId}\n${t.name}\n${t.language}`))?.category ?? null,
      guard,
      clock,
    }),
    messageStored: messageReads.exists,
    timersQueue,
    clock,
  };
  const acceptance = createMessageAcceptance(acceptanceDeps);
  const idempotency = createIdempotencyStore({
    redis,
    keyPrefix: config.queuePrefix,
    ttlSeconds: config.idempotencyTtlSeconds,
    leaseMs: config.idempotencyLeaseMs,
    clock,
  });

  const sendMessage = createSendMessageHandler({
    validateRequest: createMessageRequestValidator({ webhookTargets: config.webhookTargets, allowHttpMediaLinks: config.chatMediaAllowHttp }),
    acceptance,
    idempotency,
    guard,
    newMessageId: () => newMessageId('msg'),
    suppressionKeys: suppressionCache.keysFor,
    slidingWindow,
  });

  const sendChatMessage = createSendMessageHandler({
    validateRequest: chatMessageRequestReader(
      createChatMessageRequestValidator({ webhookTargets: config.webhookTargets, allowHttpMediaLinks: config.chatMediaAllowHttp }),
    ),
    idempotencyRoute: CHAT_IDEMPOTENCY_ROUTE,
    acceptance,
    idempotency,
    guard,
    newMessageId: () => newMessageId('msg'),
    suppressionKeys: suppressionCache.keysFor,
    slidingWindow,
  });
  const batchSending = createBatchSending({ config, db, redis, logger, guard, sendLanes, eventFanoutQueue, acceptanceDeps, idempotency, newMessageId: () => newMessageId('msg'), authenticated, clock });
  const templateHandlers = createTemplateHandlers({ templates, submitQueue: templateQueue, validate: createTemplateCreateValidator(), guard, logger, clock });
  const inboundHandlers = createInboundReadHandlers({ inbound: createInboundMessagesRepository(db), guard });

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  const everyRequest = [securityHeaders({ servesTls: config.tls !== undefined }), requestIdMiddleware(), httpMetricsMiddleware(metrics), traceContextMiddleware()];
  if (config.requireTls) everyRequest.push(requireTls());
  const sendBody = jsonBody(config.bodyLimitBytes);
  app.use(...everyRequest);
  // Before the API routers, some of which authenticate every path they see (the board asks for Basic).
  app.use(queueBoardRouter({ queues: [...sendLanes.all, callbackQueue, templateQueue, eventFanoutQueue], connection: redis, prefix: config.queuePrefix, authenticateAdmin: authenticated('admin') }));
  // The hot path is matched first.
  app.use(
    messagesRouter({
      authenticateWrite: authenticatedSend,
      authenticateRead: authenticated('messages:read'),
      body: sendBody,
      sendMessage,
      listMessages: reads.listMessages,
      getMessage: reads.getMessage,
      getMessageEvents: reads.getMessageEvents,
      ...batchSending.cancel,
    }),
  );
  app.use(batchSending.router);
  app.use(chatMessagesRouter({ authenticateWrite: authenticatedSend, body: jsonBody(config.bodyLimitBytes), sendChatMessage }));
  app.use(templatesRouter({ authenticate: authenticated('templates:write'), body: jsonBody(config.bodyLimitBytes), handlers: templateHandlers }));
  app.use(
    createSuppressionsRouter({
      db,
      guard,
      authenticateRead: authenticated('messages:read'),
      authenticateWrite: authenticated('messages:write'),
      jsonBody: jsonBody(config.bodyLimitBytes),
      cache: suppressionCache,
    }),
  );
  app.use(inboundRouter({ authenticateRead: authenticated('messages:read'), handlers: inboundHandlers }));
  app.use(
    operationsRouter({
      checks: { redis: () => redis.ping(), store: () => db.ping() },
      metrics: scrapeMetrics ? { collect: scrapeMetrics } : metrics,
      checkTimeoutMs: config.redisCommandTimeoutMs,
      isDraining,
      isStarting,
    }),
  );
  app.use(apiDocsRouter({ publicBaseUrl: config.publicBaseUrl }));
  app.use(
    providerCallbacksRouter({
      queue: callbackQueue,
      guard,
      logger,
      bodyLimitBytes: config.bodyLimitBytes,
      receiptsGroupMax: config.callbackReceiptsGroupMax,
      chatAppSecret: config.chatAppSecret,
      chatVerifyToken: config.chatVerifyToken,
      rbmClientToken: config.rbmClientToken,
      clock,
    }),
  );
  // Webhook endpoints, events and the account's callback secret; `webhooks:write` is checked inside.
  const authOnly = [authenticate(authenticator), limiter];
  const secrets = createSecretCipher(config.secretsKeys);
  app.use(createWebhooksRouter({ db, guard, auth: authOnly, jsonBody: jsonBody(config.bodyLimitBytes), policy: config.webhookTargets, secrets }));
  app.use(createEventsRouter({ db, guard, auth: authOnly, eventFanoutQueue, secrets }));
  app.use(createAccountRouter({ db, guard, auth: authOnly, secrets, jsonBody: jsonBody(config.bodyLimitBytes), authenticateWrite: authenticated('messages:write') }));
  app.use(...createVoiceRouters({ config, db, redis, eventFanoutQueue, logger, guard, authenticated, jsonBody: jsonBody(config.bodyLimitBytes), accountNumbers, clock }));
  app.use(createUpstreamsRouter({ redis, prefix: config.queuePrefix, guard, auth: authenticated('admin') }));
  // The service console: its page and session API under /console (docs/console.md).
  app.use(createConsoleRouter({ db, redis, prefix: config.queuePrefix, guard, jsonBody: jsonBody(config.bodyLimitBytes), secrets, webhookTargets: config.webhookTargets, eventFanoutQueue, handlers: { messages: reads, templates: templateHandlers, inbound: inboundHandlers }, voiceRouters: createVoiceRouters({ config, db, redis, eventFanoutQueue, logger, guard, authenticated: () => [], jsonBody: jsonBody(config.bodyLimitBytes), accountNumbers, clock }) }));
  app.use(notFoundHandler(createAllowedMethods(app)));
  app.use(errorMiddleware(logger));
  return app;
}
