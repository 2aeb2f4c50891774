import { newPubSubMessageId, newRbmEventId } from '../support/upstream-ids';
import { googSignature } from './signatures';
import type { WebhookPoster } from './webhook-poster';

export type RbmEventType = 'DELIVERED' | 'READ' | 'IS_TYPING';

export interface RbmUserMessage {
  senderPhoneNumber: string;
  messageId: string;
  agentId: string;
  text?: string;
  suggestionResponse?: { postbackData: string; text: string; type: 'REPLY' };
}

export interface RbmEventSender {
  sendEvent(event: { phone: string; eventType: RbmEventType; messageId: string; agentId: string }): void;
  sendUserMessage(message: RbmUserMessage): void;
}

export interface PubSubPush {
  body: string;
  signature: string;
}

/**
 * Wraps an RBM event in a Pub/Sub push envelope. Pub/Sub sends both the camelCase and the
 * snake_case spelling of the message fields, so the simulator does too.
 */
export function buildPubSubPush(clientToken: string, agentId: string, event: Record<string, unknown>, nowIso: string): PubSubPush {
  const data = Buffer.from(JSON.stringify(event), 'utf8');
  const pubSubId = newPubSubMessageId();
  const envelope = {
    message: {
      data: data.toString('base64'),
      messageId: pubSubId,
      message_id: pubSubId,
      publishTime: nowIso,
      publish_time: nowIso,
    },
    subscription: `projects/rbm-${agentId}/subscriptions/rbm-agent-subscription`,
  };
  return { body: JSON.stringify(envelope), signature: googSignature(clientToken, data) };
}

export function createRbmEventSender(deps: { poster: WebhookPoster; webhookUrl: string; clientToken: string; now?: () => Date }): RbmEventSender {
  const now = deps.now ?? (() => new Date());
  const push = (kind: string, agentId: string, event: Record<string, unknown>) => {
    const nowIso = now().toISOString();
    const { body, signature } = buildPubSubPush(deps.clientToken, agentId, { ...event, sendTime: nowIso }, nowIso);
    deps.poster.post({ url: deps.webhookUrl, body, kind, headers: { 'X-Goog-Signature': signature } });
  };
  return {
    sendEvent({ phone, eventType, messageId, agentId }) {
      push(`rbm.event.${eventType}`, agentId, {
        senderPhoneNumber: phone,
        eventType,
        eventId: newRbmEventId(),
        messageId,
        agentId,
      });
    },
    sendUserMessage(message) {
      const event: Record<string, unknown> = {
        senderPhoneNumber: message.senderPhoneNumber,
        messageId: message.messageId,
        agentId: message.agentId,
      };
      if (message.suggestionResponse) event.suggestionResponse = message.suggestionResponse;
      else event.text = message.text ?? '';
      push('rbm.user_message', message.agentId, event);
    },
  };
}
