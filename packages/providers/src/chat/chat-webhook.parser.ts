import type { UpstreamInbound, UpstreamReceipt, UpstreamReceiptStatus, UpstreamTemplateUpdate } from '@switchboard/domain';
import { isRecord } from '../http/upstream-response';

export interface ChatWebhookContents {
  receipts: UpstreamReceipt[];
  inbound: UpstreamInbound[];
  templateUpdates: UpstreamTemplateUpdate[];
}

type Json = Record<string, unknown>;

const RECEIPT_STATUSES: ReadonlySet<string> = new Set(['sent', 'delivered', 'read', 'failed']);
const MEDIA_TYPES: ReadonlySet<string> = new Set(['image', 'document', 'audio', 'video', 'sticker']);

function records(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function plusDigits(value: unknown): string | undefined {
  const raw = text(value);
  if (!raw) return undefined;
  return raw.startsWith('+') ? raw : `+${raw}`;
}

/** Cloud API timestamps are unix seconds as strings; anything unreadable becomes "now". */
function unixSecondsToIso(value: unknown): string {
  const seconds = Number(text(value));
  const date = Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date();
  return Number.isNaN(date.getTime()) ? new Date().toISOString() : date.toISOString();
}

function toReceipt(status: Json): UpstreamReceipt | undefined {
  const id = text(status.id);
  const state = text(status.status);
  if (!id || !state || !RECEIPT_STATUSES.has(state)) return undefined;
  const firstError = records(status.errors)[0];
  const errorCode = firstError ? text(firstError.code) : undefined;
  const errorMessage = firstError ? (text(firstError.title) ?? text(firstError.message)) : undefined;
  const receipt: UpstreamReceipt = {
    channel: 'chat',
    upstreamMessageId: id,
    status: state as UpstreamReceiptStatus,
    carrierStatusCode: state === 'failed' && errorCode ? errorCode : state,
    occurredAt: unixSecondsToIso(status.timestamp),
  };
  const clientRef = text(status.biz_opaque_callback_data);
  if (clientRef) receipt.clientRef = clientRef;
  const recipient = plusDigits(status.recipient_id);
  if (recipient) receipt.recipient = recipient;
  if (errorCode) receipt.errorCode = errorCode;
  if (errorMessage) receipt.errorMessage = errorMessage;
  return receipt;
}

function readReply(message: Json): { id: string; title: string } | undefined {
  if (message.type === 'button' && isRecord(message.button)) {
    // A template quick-reply button: the payload set at send time is the id.
    const id = text(message.button.payload) ?? text(message.button.text);
    const title = text(message.button.text) ?? id;
    return id && title ? { id, title } : undefined;
  }
  if (message.type !== 'interactive' || !isRecord(message.interactive)) return undefined;
  const interactive = message.interactive;
  const picked = interactive.type === 'button_reply' ? interactive.button_reply : interactive.type === 'list_reply' ? interactive.list_reply : undefined;
  if (!isRecord(picked)) return undefined;
  const id = text(picked.id);
  const title = text(picked.title);
  return id && title !== undefined ? { id, title } : undefined;
}

function toInbound(message: Json, businessNumber: string | undefined): UpstreamInbound | undefined {
  const id = text(message.id);
  const from = plusDigits(message.from);
  const type = text(message.type);
  if (!id || !from || !type || !businessNumber) return undefined;
  const inbound: UpstreamInbound = { channel: 'chat', upstreamId: id, from, to: businessNumber, type, receivedAt: unixSecondsToIso(message.timestamp) };
  const reply = readReply(message);
  if (reply) {
    inbound.type = 'reply';
    inbound.reply = reply;
    inbound.text = reply.title;
  } else if (type === 'text' && isRecord(message.text)) {
    inbound.text = text(message.text.body) ?? '';
  } else if (type === 'location' && isRecord(message.location)) {
    const { latitude, longitude, name, address } = message.location;
    if (typeof latitude !== 'number' || typeof longitude !== 'number') return undefined;
    inbound.location = { latitude, longitude };
    if (typeof name === 'string') inbound.location.name = name;
    if (typeof address === 'string') inbound.location.address = address;
  } else if (MEDIA_TYPES.has(type) && isRecord(message[type])) {
    const media = message[type] as Json;
    inbound.media = {};
    if (text(media.id)) inbound.media.id = text(media.id);
    if (text(media.mime_type)) inbound.media.mime_type = text(media.mime_type);
    if (text(media.caption)) inbound.media.caption = text(media.caption);
  } else if (type === 'interactive' || type === 'button') {
    return undefined;
  }
  if (isRecord(message.context) && text(message.context.id)) inbound.contextUpstreamId = text(message.context.id);
  return inbound;
}

function toTemplateUpdate(value: Json): UpstreamTemplateUpdate | undefined {
  const event = text(value.event)?.toUpperCase();
  const id = text(value.message_template_id);
  if (!id || (event !== 'APPROVED' && event !== 'REJECTED')) return undefined;
  const update: UpstreamTemplateUpdate = {
    upstreamTemplateId: id,
    name: text(value.message_template_name) ?? '',
    language: text(value.message_template_language) ?? '',
    status: event === 'APPROVED' ? 'approved' : 'rejected',
  };
  const reason = text(value.reason);
  // The Graph API sends reason "NONE" on approvals.
  if (reason && reason.toUpperCase() !== 'NONE') update.reason = reason;
  return update;
}

/**
 * Reads a Cloud API webhook body. Lenient on purpose: unknown fields, change kinds and
 * malformed items are skipped, never thrown on, so one odd item cannot block the rest.
 */
export function parseChatWebhook(body: unknown): ChatWebhookContents {
  const result: ChatWebhookContents = { receipts: [], inbound: [], templateUpdates: [] };
  if (!isRecord(body)) return result;
  for (const entry of records(body.entry)) {
    for (const change of records(entry.changes)) {
      if (!isRecord(change.value)) continue;
      const value = change.value;
      if (change.field === 'message_template_status_update') {
        const update = toTemplateUpdate(value);
        if (update) result.templateUpdates.push(update);
        continue;
      }
      if (change.field !== undefined && change.field !== 'messages') continue;
      const businessNumber = isRecord(value.metadata) ? plusDigits(value.metadata.display_phone_number) : undefined;
      for (const status of records(value.statuses)) {
        const receipt = toReceipt(status);
        if (receipt) result.receipts.push(receipt);
      }
      for (const message of records(value.messages)) {
        const inbound = toInbound(message, businessNumber);
        if (inbound) result.inbound.push(inbound);
      }
    }
  }
  return result;
}
