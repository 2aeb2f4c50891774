import { isTextContent, UnprocessableError, type CustomerWindowKey, type TemplateReference } from '@switchboard/domain';
import { templateSendProblem, type MessageRequest, type StoredTemplateFacts } from '@switchboard/schemas';
import type { DependencyGuard } from '../http/dependency-guard';
import type { SenderPlan } from '../messages/sender-resolution';

export interface ChatSendGateDeps {
  /** The account's template by name and language; cached briefly by the caller (a read, never a write). */
  findTemplate: (accountId: string, name: string, language: string) => Promise<StoredTemplateFacts | null>;
  /** Whether the customer service window is open; a Redis key the dispatcher keeps (docs/chat.md). */
  windowIsOpen: (window: CustomerWindowKey) => Promise<boolean>;
  guard: DependencyGuard;
}

/** Where the request names a template: `template`, or a chat payload of type template in `content`. */
export function templateReference(request: MessageRequest): { reference: TemplateReference; at: string } | null {
  if (request.template) return { reference: request.template, at: '/template' };
  const content = request.content;
  if (content && !isTextContent(content) && content.type === 'template' && typeof content.template === 'object' && content.template !== null) {
    return { reference: content.template as TemplateReference, at: '/content/template' };
  }
  return null;
}

function outsideWindow(): UnprocessableError {
  return new UnprocessableError(
    'outside_customer_service_window',
    'The customer has not written to this sender in the last 24 hours; only template messages can be sent.',
    [{ field: '/content', message: 'free-form chat content needs an open customer service window; send a template instead' }],
  );
}

/**
 * The chat rules that need stored state (docs/chat.md), checked before anything is queued:
 * a named template must exist, be approved and get as many parameters as it has placeholders; and
 * free-form chat content needs an open 24 h window. A closed window is a 422 on `channel: "chat"`;
 * with `auto` it marks chat as skipped: the dispatcher records that switch and moves on.
 */
export function createChatSendGate({ findTemplate, windowIsOpen, guard }: ChatSendGateDeps) {
  return async (accountId: string, request: MessageRequest, senders: SenderPlan): Promise<SenderPlan> => {
    const named = templateReference(request);
    if (named) {
      const stored = await guard('store', () => findTemplate(accountId, named.reference.name, named.reference.language));
      const problem = templateSendProblem(stored, named.reference, named.at);
      if (problem) throw problem;
      return senders;
    }
    const chatSender = senders.senders.chat;
    if (!senders.plan.includes('chat') || !chatSender) return senders;
    const open = await guard('redis', () => windowIsOpen({ accountId, sender: chatSender.e164, customer: request.recipient }));
    if (open) return senders;
    if (request.channel !== 'auto' || senders.plan.every((c) => c === 'chat')) throw outsideWindow();
    return { ...senders, skipped: { ...senders.skipped, chat: 'outside_customer_service_window' } };
  };
}
export type ChatSendGate = ReturnType<typeof createChatSendGate>;
