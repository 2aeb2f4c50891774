import { Router, type RequestHandler } from 'express';
import { chatRequestToMessageRequest, type ChatMessageRequest, type MessageRequest } from '@switchboard/schemas';

/** Idempotency-Key scope of this route: keys are per (account, route) (contract §3). */
export const CHAT_IDEMPOTENCY_ROUTE = 'post-messages-chat';

/**
 * `POST /v1/messages/chat` shares the whole acceptance path of `POST /v1/messages` (idempotency,
 * sender resolution, the chat gate, the job): only the body differs. This adapts the chat body
 * (contract §4) into the equivalent `channel: "chat"` message request.
 */
export function chatMessageRequestReader(validateChat: (body: unknown) => ChatMessageRequest): (body: unknown) => MessageRequest {
  return (body) => chatRequestToMessageRequest(validateChat(body));
}

export interface ChatMessagesRouterDeps {
  authenticateWrite: RequestHandler[];
  body: RequestHandler[];
  /** `createSendMessageHandler` built with `chatMessageRequestReader` and `CHAT_IDEMPOTENCY_ROUTE`. */
  sendChatMessage: RequestHandler;
}

export function chatMessagesRouter({ authenticateWrite, body, sendChatMessage }: ChatMessagesRouterDeps): Router {
  const router = Router();
  router.post('/v1/messages/chat', ...authenticateWrite, ...body, sendChatMessage);
  return router;
}
