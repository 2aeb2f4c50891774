import type { ConcreteChannel, MessageContent, RequestedChannel, TemplateReference } from '@switchboard/domain';

export type KeyMode = 'live' | 'test';

/** The sender the gateway resolved for one channel of the plan. */
export interface ResolvedSender {
  e164: string;
  chat_phone_number_id?: string;
}

/**
 * Everything the dispatcher needs to persist and send an accepted message. The gateway writes no row
 * on the hot path (DEVELOPERS.md), so the job is the message until the dispatcher persists it;
 * it carries no secrets.
 */
export interface SendMessageJob {
  message_id: string;
  account_id: string;
  mode: KeyMode;
  channel: RequestedChannel;
  plan: ConcreteChannel[];
  senders: Partial<Record<ConcreteChannel, ResolvedSender>>;
  recipient: string;
  content?: MessageContent;
  template?: TemplateReference;
  callback_url?: string;
  ttl_seconds?: number;
  fallback_timeout_seconds?: number;
  metadata?: Record<string, string>;
  cost_units: number;
  created_at: string;
}

export type CallbackSource = 'chat' | 'rcs' | 'sms';

export interface ReceiptPayload {
  channel: ConcreteChannel;
  upstreamMessageId: string;
  clientRef?: string;
  attemptRef?: number;
  recipient?: string;
  status: 'sent' | 'delivered' | 'read' | 'failed' | 'undelivered';
  carrierStatusCode: string;
  errorCode?: string;
  errorMessage?: string;
  occurredAt: string;
}

export interface InboundPayload {
  channel: ConcreteChannel;
  upstreamId: string;
  from: string;
  to: string;
  type: string;
  text?: string;
  reply?: { id: string; title: string };
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  media?: { id?: string; mime_type?: string; caption?: string };
  contextUpstreamId?: string;
  receivedAt: string;
}

export interface TemplateUpdatePayload {
  upstreamTemplateId: string;
  name: string;
  language: string;
  status: 'approved' | 'rejected';
  reason?: string;
}

/** A verified upstream callback, already parsed into our normalised shapes by the gateway. */
export interface ProviderCallbackJob {
  source: CallbackSource;
  received_at: string;
  receipts: ReceiptPayload[];
  inbound: InboundPayload[];
  template_updates: TemplateUpdatePayload[];
}
