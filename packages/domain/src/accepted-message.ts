import type { ConcreteChannel, RequestedChannel } from './channels';
import type { MessageContent, TemplateReference } from './content';

export type KeyMode = 'live' | 'test';

/**
 * The lane a message travels in (docs/messages.md#traffic-lanes): `transactional` (one-time passwords,
 * alerts) has capacity of its own that a `bulk` backlog never takes.
 */
export const TRAFFIC_CLASSES = ['transactional', 'bulk'] as const;
export type TrafficClass = (typeof TRAFFIC_CLASSES)[number];

/** The sender the gateway resolved for one channel of the plan. */
export interface ResolvedSender {
  e164: string;
  chat_phone_number_id?: string;
}

/**
 * A message as the gateway accepted it: what the send job carries and what the dispatcher persists.
 * One shape for both, so that the queue payload and the stored row cannot drift apart.
 */
export interface AcceptedMessageFields {
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
  /** Absent on jobs accepted before lanes existed: those are `transactional`. */
  traffic_class?: TrafficClass;
}
