import type { Router } from 'express';
import { createConsoleRouter, type ConsoleDeps } from '../console/console.router';
import type { GatewayContext } from './gateway-context';
import { createVoiceArea } from './voice.area';

/** The service console: its page and session API under /console (docs/console.md). */
export function createConsoleArea(ctx: GatewayContext, handlers: ConsoleDeps['handlers']): Router {
  const { config, db, redis, guard, secrets, eventFanoutQueue, replicaAck } = ctx;
  return createConsoleRouter({
    db,
    redis,
    prefix: ctx.sharedPrefix,
    guard,
    jsonBody: ctx.jsonBody(),
    secrets,
    webhookTargets: config.webhookTargets,
    eventFanoutQueue,
    replicaAck,
    handlers,
    voiceRouters: createVoiceArea(ctx, () => []),
  });
}
