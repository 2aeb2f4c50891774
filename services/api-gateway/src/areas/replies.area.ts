import type { Router } from 'express';
import { createInboundMessagesRepository } from '@switchboard/store';
import { createInboundReadHandlers, inboundRouter } from '../routes/inbound.route';
import { createSuppressionsRouter } from '../routes/suppressions.route';
import type { GatewayContext } from './gateway-context';
import type { MessageAcceptanceWiring } from './message-acceptance.wiring';

/** What recipients said: the suppression list their STOPs fill (docs/routing.md#opt-out) and their inbound messages. */
export function createRepliesArea(
  ctx: GatewayContext,
  { suppressionCache }: Pick<MessageAcceptanceWiring, 'suppressionCache'>,
): { inboundHandlers: ReturnType<typeof createInboundReadHandlers>; routers: Router[] } {
  const suppressions = createSuppressionsRouter({
    db: ctx.db,
    guard: ctx.guard,
    authenticateRead: ctx.authenticated('messages:read'),
    authenticateWrite: ctx.authenticated('messages:write'),
    jsonBody: ctx.jsonBody(),
    cache: suppressionCache,
  });
  const inboundHandlers = createInboundReadHandlers({ inbound: createInboundMessagesRepository(ctx.db), guard: ctx.guard });
  return {
    inboundHandlers,
    routers: [suppressions, inboundRouter({ authenticateRead: ctx.authenticated('messages:read'), handlers: inboundHandlers })],
  };
}
