import type { Router } from 'express';
import { createChatMessageRequestValidator, createMessageRequestValidator } from '@switchboard/schemas';
import { createMessageReadsRepository } from '@switchboard/store';
import { createBatchSending } from '../batches/batch-sending';
import { createMessageAcceptance } from '../messages/message-acceptance';
import { createSlidingWindowCalls } from '../rate-limit/rate-limiter';
import { chatMessageRequestReader, chatMessagesRouter, CHAT_IDEMPOTENCY_ROUTE } from '../routes/chat-messages.route';
import { createMessageReadHandlers } from '../routes/message-reads.route';
import { createSendMessageHandler, messagesRouter } from '../routes/messages.route';
import type { GatewayContext } from './gateway-context';
import type { MessageAcceptanceWiring } from './message-acceptance.wiring';

export interface MessagesArea {
  /** The message reads, which the console serves to its session too. */
  reads: ReturnType<typeof createMessageReadHandlers>;
  /** /v1/messages, /v1/batches and /v1/messages/chat, in that order. */
  routers: Router[];
}

/** Sending and reading messages (docs/messages.md), batches (docs/messages.md#batch-sends) and chat sends (docs/chat.md). */
export function createMessagesArea(ctx: GatewayContext, wiring: MessageAcceptanceWiring): MessagesArea {
  const { config, guard } = ctx;
  const { acceptanceDeps, idempotency, suppressionCache, newMessageId } = wiring;
  const acceptance = createMessageAcceptance(acceptanceDeps);
  const slidingWindow = createSlidingWindowCalls(ctx.prefix);
  const mediaLinks = { webhookTargets: config.webhookTargets, allowHttpMediaLinks: config.webhookTargets.allowHttp };
  const shared = {
    acceptance,
    idempotency,
    guard,
    newMessageId,
    suppressionKeys: (...args: Parameters<typeof suppressionCache.keysFor>) => suppressionCache.keysFor(...args),
    slidingWindow,
  };
  const sendMessage = createSendMessageHandler({ validateRequest: createMessageRequestValidator(mediaLinks), ...shared });
  const sendChatMessage = createSendMessageHandler({
    validateRequest: chatMessageRequestReader(createChatMessageRequestValidator(mediaLinks)),
    idempotencyRoute: CHAT_IDEMPOTENCY_ROUTE,
    ...shared,
  });
  const reads = createMessageReadHandlers({ reads: createMessageReadsRepository(ctx.db), queue: ctx.sendLanes, guard });
  const batchSending = createBatchSending({ ...ctx, acceptanceDeps, idempotency, newMessageId });
  const sendBody = ctx.jsonBody();
  const messages = messagesRouter({
    authenticateWrite: ctx.authenticatedSend,
    authenticateRead: ctx.authenticated('messages:read'),
    body: sendBody,
    sendMessage,
    listMessages: reads.listMessages,
    getMessage: reads.getMessage,
    getMessageEvents: reads.getMessageEvents,
    ...batchSending.cancel,
  });
  const chat = chatMessagesRouter({ authenticateWrite: ctx.authenticatedSend, body: ctx.jsonBody(), sendChatMessage });
  return { reads, routers: [messages, batchSending.router, chat] };
}
