import type { UpstreamInbound, UpstreamReceipt } from '@switchboard/domain';
import { isRecord } from '../http/upstream-response';

export interface RbmEventContents {
  receipts: UpstreamReceipt[];
  inbound: UpstreamInbound[];
}

export interface RbmParseOptions {
  /**
   * RBM user messages name the agent, not a phone number. The number to report as `to`
   * for inbound messages; when absent, `to` carries the event's `agentId`.
   */
  agentPhoneNumber?: string;
}

type Json = Record<string, unknown>;

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function isoOrNow(value: unknown): string {
  const at = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isNaN(at) ? new Date().toISOString() : new Date(at).toISOString();
}

/** A Pub/Sub push wraps the event as base64 JSON in `message.data`; a bare event is accepted too. */
function unwrap(body: unknown): Json | undefined {
  if (!isRecord(body)) return undefined;
  if (!isRecord(body.message) || typeof body.message.data !== 'string') {
    return typeof body.senderPhoneNumber === 'string' ? body : undefined;
  }
  try {
    const decoded: unknown = JSON.parse(Buffer.from(body.message.data, 'base64').toString('utf8'));
    return isRecord(decoded) ? decoded : undefined;
  } catch {
    return undefined;
  }
}

function toReceipt(event: Json, eventType: string): UpstreamReceipt | undefined {
  const status = eventType === 'DELIVERED' ? 'delivered' : eventType === 'READ' ? 'read' : undefined;
  const messageId = str(event.messageId);
  if (!status || !messageId) return undefined;
  const receipt: UpstreamReceipt = {
    channel: 'rcs',
    upstreamMessageId: messageId,
    // The messageId of an agent message is the one we chose at send time: our msg_ id.
    clientRef: messageId,
    status,
    carrierStatusCode: eventType,
    occurredAt: isoOrNow(event.sendTime),
  };
  const recipient = str(event.senderPhoneNumber);
  if (recipient) receipt.recipient = recipient;
  return receipt;
}

function toInbound(event: Json, options: RbmParseOptions): UpstreamInbound | undefined {
  const from = str(event.senderPhoneNumber);
  const upstreamId = str(event.messageId);
  if (!from || !upstreamId) return undefined;
  const base = {
    channel: 'rcs' as const,
    upstreamId,
    from,
    to: options.agentPhoneNumber ?? str(event.agentId) ?? '',
    receivedAt: isoOrNow(event.sendTime),
  };
  if (isRecord(event.suggestionResponse)) {
    const id = str(event.suggestionResponse.postbackData) ?? str(event.suggestionResponse.text);
    const title = str(event.suggestionResponse.text) ?? id;
    if (!id || !title) return undefined;
    return { ...base, type: 'reply', reply: { id, title }, text: title };
  }
  if (typeof event.text === 'string') return { ...base, type: 'text', text: event.text };
  if (isRecord(event.location)) {
    const { latitude, longitude } = event.location;
    if (typeof latitude !== 'number' || typeof longitude !== 'number') return undefined;
    return { ...base, type: 'location', location: { latitude, longitude } };
  }
  if (isRecord(event.userFile) && isRecord(event.userFile.payload)) {
    const payload = event.userFile.payload;
    return { ...base, type: 'file', media: { id: str(payload.fileUri), mime_type: str(payload.mimeType) } };
  }
  return undefined;
}

/**
 * Reads an RBM event push: DELIVERED and READ become receipts, user messages become inbound,
 * anything else (IS_TYPING, unknown shapes, bad base64) is skipped without throwing.
 */
export function parseRbmEvent(body: unknown, options: RbmParseOptions = {}): RbmEventContents {
  const result: RbmEventContents = { receipts: [], inbound: [] };
  const event = unwrap(body);
  if (!event) return result;
  const eventType = str(event.eventType);
  if (eventType) {
    const receipt = toReceipt(event, eventType);
    if (receipt) result.receipts.push(receipt);
    return result;
  }
  const inbound = toInbound(event, options);
  if (inbound) result.inbound.push(inbound);
  return result;
}
