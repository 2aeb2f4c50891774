import { ProviderError } from '../provider-error';
import type { OutboundContent } from '../provider.types';

export interface ChatSendBody {
  messaging_product: 'whatsapp';
  recipient_type: 'individual';
  to: string;
  type: string;
  biz_opaque_callback_data: string;
  [typed: string]: unknown;
}

const RESERVED_KEYS = new Set(['messaging_product', 'recipient_type', 'to', 'type', 'biz_opaque_callback_data']);

export function digitsOf(e164: string): string {
  return e164.replace(/^\+/, '');
}

/**
 * The Cloud API wants `language: { code }` and always `components`; our API also accepts
 * `language` as a plain string and the flat `parameters` list (docs/chat.md#sending-a-template), which is
 * the body component's parameters.
 */
function normalizeTemplatePayload(payload: Record<string, unknown>): Record<string, unknown> {
  const { parameters, language, ...rest } = payload;
  const normalized: Record<string, unknown> = { ...rest };
  if (typeof language === 'string') normalized.language = { code: language };
  else if (language !== undefined) normalized.language = language;
  if (normalized.components === undefined && Array.isArray(parameters)) {
    normalized.components = parameters.length > 0 ? [{ type: 'body', parameters }] : [];
  }
  return normalized;
}

export function buildChatSendBody(to: string, clientRef: string, content: OutboundContent): ChatSendBody {
  const base = {
    messaging_product: 'whatsapp' as const,
    recipient_type: 'individual' as const,
    to: digitsOf(to),
    biz_opaque_callback_data: clientRef,
  };
  if (content.kind === 'text') {
    return { ...base, type: 'text', text: { body: content.text } };
  }
  if (!/^[a-z_]+$/.test(content.type) || RESERVED_KEYS.has(content.type)) {
    throw new ProviderError('permanent', 'invalid_content', `unsupported chat content type "${content.type}"`);
  }
  const payload = content.type === 'template' ? normalizeTemplatePayload(content.payload) : content.payload;
  return { ...base, type: content.type, [content.type]: payload };
}
