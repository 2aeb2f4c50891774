import type { RequestHandler, Router } from 'express';
import { createVoiceRouters } from '../voice/voice-routes';
import type { GatewayContext } from './gateway-context';

/**
 * The voice API's routers (docs/voice.md). `authenticated` is the API key chain for /v1, or none for the
 * console, whose session middleware has already authenticated the request.
 */
export function createVoiceArea(ctx: GatewayContext, authenticated: (scope: 'calls:write' | 'calls:read' | 'agents:write') => RequestHandler[]): Router[] {
  const { config, db, redis, eventFanoutQueue, logger, guard, accountNumbers, replicaAck, clock } = ctx;
  return createVoiceRouters({
    config,
    db,
    redis,
    eventFanoutQueue,
    logger,
    guard,
    authenticated,
    jsonBody: ctx.jsonBody(),
    accountNumbers,
    replicaAck,
    clock,
    prefix: ctx.prefix,
    sharedPrefix: ctx.sharedPrefix,
  });
}
