export type {
  ChatAdapter,
  OutboundContent,
  OutboundMessage,
  RcsAdapter,
  SendAccepted,
  SmsAdapter,
  SmsSplit,
  SplitSmsIntoParts,
  TemplateCreated,
  TemplateDraft,
} from './provider.types';
export { ProviderError, isProviderError } from './provider-error';
export type { ProviderFailureKind } from './provider-error';

export { createChatAdapter, GRAPH_API_VERSION } from './chat/chat.adapter';
export type { ChatAdapterConfig } from './chat/chat.adapter';
export { verifyChatSignature } from './chat/chat-signature.verifier';
export { parseChatWebhook } from './chat/chat-webhook.parser';
export type { ChatWebhookContents } from './chat/chat-webhook.parser';

export { createRcsAdapter } from './rcs/rcs.adapter';
export type { RcsAdapterConfig } from './rcs/rcs.adapter';
export { verifyRbmSignature } from './rcs/rbm-signature.verifier';
export { parseRbmEvent } from './rcs/rbm-event.parser';
export type { RbmEventContents, RbmParseOptions } from './rcs/rbm-event.parser';

export { createSmsAdapter } from './sms/sms.adapter';
export type { SmsAdapterConfig } from './sms/sms.adapter';
export { parseSmppReceiptText } from './sms/smpp-receipt.parser';
export type { SmppReceiptText } from './sms/smpp-receipt.parser';
