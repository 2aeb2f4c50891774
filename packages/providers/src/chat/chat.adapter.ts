import type { AxiosInstance } from 'axios';
import type { Logger } from '@switchboard/logger';
import { ProviderError } from '../provider-error';
import type { ChatAdapter, OutboundMessage, SendAccepted, TemplateCreated, TemplateDraft } from '../provider.types';
import { silentLogger } from '../silent.logger';
import { createUpstreamHttp, isRecord, toNetworkFailure, UpstreamFailure } from '../http/upstream-response';
import { mapChatFailure } from './chat-error.mapper';
import { buildChatSendBody, digitsOf } from './chat-payload.builder';

export interface ChatAdapterConfig {
  /** Graph API root, without the version, e.g. `https://graph.facebook.com`. */
  baseUrl: string;
  accessToken: string;
  /** WhatsApp Business Account id, owner of the message templates. */
  wabaId: string;
  /** @defaultValue 10000 */
  timeoutMs?: number;
}

/** Pinned so a Graph API version bump is a deliberate change, not a surprise. */
export const GRAPH_API_VERSION = 'v21.0';

const DEFAULT_TIMEOUT_MS = 10_000;

async function postJson(http: AxiosInstance, path: string, body: unknown): Promise<{ status: number; data: unknown; headers: Record<string, unknown> }> {
  try {
    const response = await http.post(path, body);
    return { status: response.status, data: response.data, headers: response.headers as Record<string, unknown> };
  } catch (error) {
    throw mapChatFailure(toNetworkFailure(error));
  }
}

function failureOf(response: { status: number; data: unknown; headers: Record<string, unknown> }): UpstreamFailure {
  return { status: response.status, body: response.data, retryAfter: response.headers['retry-after'], message: `HTTP ${response.status}` };
}

function templateStatusOf(value: unknown): TemplateCreated['status'] {
  const status = typeof value === 'string' ? value.toUpperCase() : '';
  if (status === 'APPROVED') return 'approved';
  if (status === 'REJECTED') return 'rejected';
  return 'pending';
}

export function createChatAdapter(deps: { config: ChatAdapterConfig; logger?: Logger }): ChatAdapter {
  const { config } = deps;
  const logger = deps.logger ?? silentLogger;
  const http = createUpstreamHttp(config.baseUrl, config.accessToken, config.timeoutMs ?? DEFAULT_TIMEOUT_MS);

  async function send(message: OutboundMessage): Promise<SendAccepted> {
    const phoneNumberId = message.chatPhoneNumberId ?? digitsOf(message.from);
    const body = buildChatSendBody(message.to, message.clientRef, message.content);
    const path = `/${GRAPH_API_VERSION}/${encodeURIComponent(phoneNumberId)}/messages`;
    const response = await postJson(http, path, body);
    if (response.status < 200 || response.status >= 300) {
      const error = mapChatFailure(failureOf(response));
      logger.warn('chat send refused', { message_id: message.clientRef, kind: error.kind, upstream_code: error.upstreamCode });
      throw error;
    }
    const messages = isRecord(response.data) && Array.isArray(response.data.messages) ? response.data.messages : [];
    const first: unknown = messages[0];
    const upstreamMessageId = isRecord(first) && typeof first.id === 'string' ? first.id : undefined;
    if (!upstreamMessageId) {
      throw new ProviderError('transient', 'malformed_response', 'chat send answered 2xx without messages[0].id');
    }
    logger.debug('chat send accepted', { message_id: message.clientRef, upstream_message_id: upstreamMessageId });
    return { upstreamMessageId };
  }

  async function createTemplate(template: TemplateDraft): Promise<TemplateCreated> {
    const path = `/${GRAPH_API_VERSION}/${encodeURIComponent(config.wabaId)}/message_templates`;
    // The Graph API documents categories in upper case (AUTHENTICATION, UTILITY, MARKETING); ours are lower case.
    const body = { name: template.name, language: template.language, category: template.category.toUpperCase(), components: template.components };
    const response = await postJson(http, path, body);
    if (response.status < 200 || response.status >= 300) {
      const error = mapChatFailure(failureOf(response));
      logger.warn('chat template creation refused', { template: template.name, kind: error.kind, upstream_code: error.upstreamCode });
      throw error;
    }
    const data = isRecord(response.data) ? response.data : {};
    const id = typeof data.id === 'string' || typeof data.id === 'number' ? String(data.id) : undefined;
    if (!id) throw new ProviderError('transient', 'malformed_response', 'template creation answered 2xx without an id');
    return { upstreamTemplateId: id, status: templateStatusOf(data.status) };
  }

  return { send, createTemplate };
}
