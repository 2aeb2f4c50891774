import type { Router } from 'express';
import { queueBoardRouter } from '../admin/queue-board.router';
import { createUpstreamsRouter } from '../routes/upstreams.route';
import type { GatewayContext } from './gateway-context';

/** Bull Board over every queue the gateway feeds; mounted before the API routers, some of which authenticate every path. */
export function createQueueBoardRouter(ctx: GatewayContext): Router {
  const { sendLanes, callbackQueue, templateQueue, eventFanoutQueue } = ctx;
  return queueBoardRouter({
    queues: [...sendLanes.all, callbackQueue, templateQueue, eventFanoutQueue],
    connection: ctx.redis,
    prefix: ctx.prefix,
    authenticateAdmin: ctx.authenticated('admin'),
  });
}

/** GET /v1/upstreams: the upstreams and their breakers as the dispatchers publish them (docs/api.md). */
export function createUpstreamsAdminRouter(ctx: GatewayContext): Router {
  return createUpstreamsRouter({ redis: ctx.redis, prefix: ctx.sharedPrefix, guard: ctx.guard, auth: ctx.authenticated('admin') });
}
