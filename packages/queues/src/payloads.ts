import type {
  AcceptedMessageFields,
  ConcreteChannel,
  UpstreamInbound,
  UpstreamReceipt,
  UpstreamTemplateUpdate,
} from '@switchboard/domain';

/** Re-exported for the producers and consumers that know them from here. */
export type { KeyMode, ResolvedSender } from '@switchboard/domain';

/**
 * Everything the dispatcher needs to persist and send an accepted message. The gateway writes no row
 * on the hot path (DEVELOPERS.md), so the job is the message until the dispatcher persists it;
 * it carries no secrets.
 */
export interface SendMessageJob extends AcceptedMessageFields {
  message_id: string;
  /**
   * Plan channels the gateway already knows cannot carry this message (an `auto` chat send outside the
   * 24 h window). The dispatcher records each as a failed attempt with `message.fallback` (docs/messages.md#auto-fallback)
   * and moves on without calling that upstream.
   */
  skipped_channels?: Partial<Record<ConcreteChannel, SkipReason>>;
}

export type SkipReason = 'outside_customer_service_window';

export type CallbackSource = 'chat' | 'rcs' | 'sms';

/** A callback job carries the upstream event shapes of `@switchboard/domain` as they are. */
export type ReceiptPayload = UpstreamReceipt;
export type InboundPayload = UpstreamInbound;
export type TemplateUpdatePayload = UpstreamTemplateUpdate;

/** A verified upstream callback, already parsed into our normalised shapes by the gateway. */
export interface ProviderCallbackJob {
  source: CallbackSource;
  received_at: string;
  receipts: ReceiptPayload[];
  inbound: InboundPayload[];
  template_updates: TemplateUpdatePayload[];
}
