import type { Router } from 'express';
import { CALLBACK_RECEIPTS_GROUP_MAX, providerCallbacksRouter } from '../routes/provider-callbacks.route';
import type { GatewayContext } from './gateway-context';

/** The upstreams' callbacks (chat webhook, RBM events): verified, parsed and queued for the dispatcher. */
export function createCallbacksRouter(ctx: GatewayContext): Router {
  const { config } = ctx;
  return providerCallbacksRouter({
    queue: ctx.callbackJobs ?? ctx.callbackQueue,
    guard: ctx.guard,
    logger: ctx.logger,
    bodyLimitBytes: config.bodyLimitBytes,
    receiptsGroupMax: CALLBACK_RECEIPTS_GROUP_MAX,
    chatAppSecret: config.chatAppSecret,
    chatVerifyToken: config.chatVerifyToken,
    rbmClientToken: config.rbmClientToken,
    replicaAck: ctx.callbackReplicaAck,
    clock: ctx.clock,
  });
}
