import { Router, type RequestHandler } from 'express';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ReplicaAck } from '@switchboard/queues';
import { createConsoleReadsRepository, createConsoleUsersRepository, createMessageReadsRepository, type Db, type SecretCipher } from '@switchboard/store';
import type { TargetPolicy } from '@switchboard/webhooks';
import type { DependencyGuard } from '../http/dependency-guard';
import type { createMessageReadHandlers } from '../routes/message-reads.route';
import type { createTemplateHandlers } from '../routes/templates.route';
import type { createInboundReadHandlers } from '../routes/inbound.route';
import { createAccountRouter } from '../routes/account.route';
import { createEventsRouter } from '../routes/events.route';
import { createWebhooksRouter } from '../routes/webhooks.route';
import { consoleAssetsDir, consoleAssetsRouter } from './console-assets';
import { createConsoleAuthRouter } from './console-auth.route';
import { createConsoleResourcesRouter } from './console-resources.route';
import { createConsoleMessagesRouter } from './console-messages.route';
import { consoleRoleGuard, consoleSession, requireEditor } from './console-session.middleware';
import { createSignInThrottle } from './sign-in-throttle';

export interface ConsoleDeps {
  db: Db;
  redis: Redis;
  prefix: string;
  guard: DependencyGuard;
  jsonBody: RequestHandler[];
  secrets: SecretCipher;
  webhookTargets: TargetPolicy;
  eventFanoutQueue: Queue;
  /** Confirms the console's fan-out jobs on replicas (docs/operations.md#redis-failover). */
  replicaAck: ReplicaAck;
  /** The /v1 handlers the app already built; the console reuses them under its own session. */
  handlers: {
    messages: ReturnType<typeof createMessageReadHandlers>;
    templates: ReturnType<typeof createTemplateHandlers>;
    inbound: ReturnType<typeof createInboundReadHandlers>;
  };
  /**
   * The /v1/voice calls and agents routers, built without authentication of their own: the console session is the
   * caller (docs/console.md#calls-and-agents). Optional so that a gateway without voice still serves the console.
   */
  voiceRouters?: Router[];
}

/**
 * `/console` (docs/console.md): the page, its session API, and `/console/api/v1/...`, which runs the same
 * account-scoped /v1 handlers with the signed-in user's account as the caller. Not part of the public OpenAPI document.
 */
export function createConsoleRouter(deps: ConsoleDeps): Router {
  const users = createConsoleUsersRepository(deps.db);
  const session = consoleSession({ users, guard: deps.guard });
  const router = Router();
  router.use(
    createConsoleAuthRouter({
      users,
      throttle: createSignInThrottle({ redis: deps.redis, prefix: deps.prefix, guard: deps.guard }),
      guard: deps.guard,
      jsonBody: deps.jsonBody,
      session,
    }),
  );

  // Everything below needs a session, the CSRF token on writes, and a role that may write.
  const api = Router();
  api.use(session, consoleRoleGuard());
  api.use(
    createConsoleResourcesRouter({
      db: deps.db,
      reads: createConsoleReadsRepository(deps.db),
      guard: deps.guard,
      jsonBody: deps.jsonBody,
      secrets: deps.secrets,
      eventFanoutQueue: deps.eventFanoutQueue,
      replicaAck: deps.replicaAck,
    }),
  );
  api.use(createConsoleMessagesRouter({ reads: createMessageReadsRepository(deps.db), guard: deps.guard }));
  const v1 = Router();
  const { messages, templates, inbound } = deps.handlers;
  v1.get('/v1/messages', messages.listMessages);
  v1.get('/v1/messages/:id', messages.getMessage);
  v1.get('/v1/messages/:id/events', messages.getMessageEvents);
  v1.post('/v1/templates', ...deps.jsonBody, templates.createTemplate);
  v1.get('/v1/templates', templates.listTemplates);
  v1.get('/v1/templates/:id', templates.getTemplate);
  v1.delete('/v1/templates/:id', templates.deleteTemplate);
  v1.get('/v1/inbound', inbound.listInbound);
  v1.get('/v1/inbound/:id', inbound.getInbound);
  v1.use(
    createWebhooksRouter({
      db: deps.db,
      guard: deps.guard,
      auth: [],
      jsonBody: deps.jsonBody,
      policy: deps.webhookTargets,
      secrets: deps.secrets,
    }),
  );
  v1.use(createEventsRouter({ db: deps.db, guard: deps.guard, auth: [], eventFanoutQueue: deps.eventFanoutQueue, secrets: deps.secrets }));
  v1.use('/v1/account/webhook-secret', requireEditor());
  // The same call and agent handlers as /v1/voice; the role guard above already refused a viewer's writes.
  for (const voice of deps.voiceRouters ?? []) v1.use(voice);
  v1.use(
    createAccountRouter({
      db: deps.db,
      guard: deps.guard,
      auth: [],
      secrets: deps.secrets,
      jsonBody: deps.jsonBody,
      authenticateWrite: [],
    }),
  );
  api.use(v1);
  router.use('/console/api', api);
  router.use(consoleAssetsRouter(consoleAssetsDir()));
  return router;
}
