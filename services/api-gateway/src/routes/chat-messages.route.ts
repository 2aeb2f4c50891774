import { Router, type RequestHandler } from 'express';
import { ApiError } from '@switchboard/domain';
import { chatRequestToMessageRequest, type ChatMessageRequest, type MessageRequest } from '@switchboard/schemas';

/** Idempotency-Key scope of this route: keys are per (account, route) (docs/api.md#idempotency-key). */
export const CHAT_IDEMPOTENCY_ROUTE = 'post-messages-chat';

/**
 * `POST /v1/messages/chat` shares the whole acceptance path of `POST /v1/messages` (idempotency,
 * sender resolution, the chat gate, the job): only the body differs. This adapts the chat body
 * (docs/chat.md) into the equivalent `channel: "chat"` message request.
 */
export function chatMessageRequestReader(validateChat: (body: unknown) => ChatMessageRequest): (body: unknown) => MessageRequest {
  return (body) => chatRequestToMessageRequest(validateChat(body));
}

/** Where a field of the equivalent message request stands in the chat body it was built from. */
export function chatBodyPointer(field: string): string {
  if (field === '/recipient') return '/to';
  if (field === '/content') return '/type';
  if (field.startsWith('/content/')) return field.slice('/content'.length);
  return field;
}

/**
 * Problems found after the chat body became a message request (the 24 h window, senders) name fields
 * of that request; the client sent the chat body, so its fields are named instead.
 */
function inChatBodyTerms(handler: RequestHandler): RequestHandler {
  return async (req, res, next) => {
    try {
      await handler(req, res, next);
    } catch (error) {
      if (!(error instanceof ApiError) || !error.errors) throw error;
      const errors = error.errors.map((e) => ({ ...e, field: chatBodyPointer(e.field) }));
      throw new ApiError(error.status, error.code, error.title, error.message, errors, error.headers);
    }
  };
}

export interface ChatMessagesRouterDeps {
  authenticateWrite: RequestHandler[];
  body: RequestHandler[];
  /** `createSendMessageHandler` built with `chatMessageRequestReader` and `CHAT_IDEMPOTENCY_ROUTE`. */
  sendChatMessage: RequestHandler;
}

export function chatMessagesRouter({ authenticateWrite, body, sendChatMessage }: ChatMessagesRouterDeps): Router {
  const router = Router();
  router.post('/v1/messages/chat', ...authenticateWrite, ...body, inChatBodyTerms(sendChatMessage));
  return router;
}
