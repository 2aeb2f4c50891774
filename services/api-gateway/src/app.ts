import express, { type Express } from 'express';
import { createConsoleUsersRepository } from '@switchboard/store';
import { createAccountRouters } from './areas/account.area';
import { createQueueBoardRouter, createUpstreamsAdminRouter } from './areas/admin.area';
import { createCallbacksRouter } from './areas/callbacks.area';
import { createConsoleArea } from './areas/console.area';
import { createGatewayContext, type GatewayDeps } from './areas/gateway-context';
import { wireMessageAcceptance } from './areas/message-acceptance.wiring';
import { createMessagesArea } from './areas/messages.area';
import { createOperationsAndDocsRouters } from './areas/operations.area';
import { createRepliesArea } from './areas/replies.area';
import { createTemplatesArea } from './areas/templates.area';
import { createVoiceArea } from './areas/voice.area';
import type { ApiKeyAuthenticator } from './auth/api-key.authenticator';
import { createBatchAdmission } from './batches/batch-send.handler';
import { createAllowedMethods } from './http/allowed-methods';
import { errorMiddleware, notFoundHandler } from './http/error.middleware';
import { httpMetricsMiddleware } from './http/http-metrics.middleware';
import { requestIdMiddleware } from './http/request-id.middleware';
import { requireTls } from './http/require-tls.middleware';
import { securityHeaders } from './http/security-headers.middleware';
import { traceContextMiddleware } from './http/trace-context.middleware';
import { partitionFrontDoor } from './partitions/partition-front-door';

export type { GatewayDeps };

/** What differs between the partitions' apps: their prefix and the queues under it. */
export interface PartitionParts {
  prefix: string;
  /** The partition's own connection (serve-gateway.ts says why). */
  redis: GatewayDeps['redis'];
  sendLanes: GatewayDeps['sendLanes'];
  eventFanoutQueue: GatewayDeps['eventFanoutQueue'];
  callbackQueue: GatewayDeps['callbackQueue'];
  /** Confirms the partition's writes on its master's replicas (docs/operations.md#redis-failover). */
  replicaAck: NonNullable<GatewayDeps['replicaAck']>;
}

/**
 * One app per queue partition, each the whole gateway under its partition's keys, behind a front door that
 * hands a request to its account's app (docs/storage-layout.md#queue-partitions). The apps share the
 * authenticator, so a key is looked up once, and the batch admission, so a process admits as many batches as one app.
 */
export function createPartitionedApp(
  common: Omit<GatewayDeps, keyof PartitionParts | 'prefixes' | 'authenticator' | 'batchAdmission'>,
  partitions: readonly PartitionParts[],
  authenticator: ApiKeyAuthenticator,
): Express {
  const batchAdmission = createBatchAdmission();
  const apps = partitions.map(({ prefix, ...queues }) =>
    createApp({ ...common, ...queues, authenticator, batchAdmission, prefixes: { partition: prefix, shared: common.config.queuePrefix } }),
  );
  const users = createConsoleUsersRepository(common.db);
  const front = express();
  front.disable('x-powered-by');
  front.set('trust proxy', common.config.trustProxy);
  front.use(partitionFrontDoor({ apps, authenticator, consoleAccount: async (token) => (await users.findSession(token))?.user.account_id }));
  return front;
}

/**
 * Builds the express application from its dependencies; `main.ts` owns their lifecycle. Each area builds its
 * routers (areas/*.area.ts); the order below is the order in which express tries them.
 */
export function createApp(deps: GatewayDeps): Express {
  const ctx = createGatewayContext(deps);
  const { config } = ctx;
  const acceptance = wireMessageAcceptance(ctx);
  const messages = createMessagesArea(ctx, acceptance);
  const templates = createTemplatesArea(ctx);
  const replies = createRepliesArea(ctx, acceptance);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  const everyRequest = [
    securityHeaders({ servesTls: config.tls !== undefined }),
    requestIdMiddleware(),
    httpMetricsMiddleware(deps.metrics),
    traceContextMiddleware(),
  ];
  if (config.requireTls) everyRequest.push(requireTls());
  app.use(...everyRequest);
  // Before the API routers, some of which authenticate every path they see (the board asks for Basic).
  app.use(createQueueBoardRouter(ctx));
  // The hot path is matched first.
  app.use(...messages.routers);
  app.use(templates.router);
  app.use(...replies.routers);
  app.use(...createOperationsAndDocsRouters(ctx));
  app.use(createCallbacksRouter(ctx));
  app.use(...createAccountRouters(ctx));
  app.use(...createVoiceArea(ctx, ctx.authenticated));
  app.use(createUpstreamsAdminRouter(ctx));
  app.use(createConsoleArea(ctx, { messages: messages.reads, templates: templates.handlers, inbound: replies.inboundHandlers }));
  app.use(notFoundHandler(createAllowedMethods(app)));
  app.use(errorMiddleware(ctx.logger));
  return app;
}
