import type { Router } from 'express';
import { createAccountRouter } from '../routes/account.route';
import { createEventsRouter } from '../routes/events.route';
import { createWebhooksRouter } from '../routes/webhooks.route';
import type { GatewayContext } from './gateway-context';

/** Webhook endpoints, events and the account's settings and callback secret; `webhooks:write` is checked inside. */
export function createAccountRouters(ctx: GatewayContext): Router[] {
  const { db, guard, authOnly: auth, secrets, eventFanoutQueue } = ctx;
  return [
    createWebhooksRouter({ db, guard, auth, jsonBody: ctx.jsonBody(), policy: ctx.config.webhookTargets, secrets }),
    createEventsRouter({ db, guard, auth, eventFanoutQueue, secrets }),
    createAccountRouter({ db, guard, auth, secrets, jsonBody: ctx.jsonBody(), authenticateWrite: ctx.authenticated('messages:write') }),
  ];
}
