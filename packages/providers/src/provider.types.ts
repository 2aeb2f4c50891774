import type { ConcreteChannel, UpstreamInbound, UpstreamReceipt, UpstreamReceiptStatus, UpstreamTemplateUpdate } from '@switchboard/domain';

/** The channels an adapter can carry a message on. */
export type ChannelName = ConcreteChannel;

/**
 * The structured-log surface the adapters need. Any winston logger fits, and so does
 * `getLogger({ service })` from `@switchboard/logger`; a local interface keeps this
 * package free of a runtime dependency on it.
 */
export interface Logger {
  info(message: string, fields?: object): void;
  warn(message: string, fields?: object): void;
  error(message: string, fields?: object): void;
  debug(message: string, fields?: object): void;
}

export type OutboundContent =
  | { kind: 'text'; text: string }
  /** Chat only: a Cloud API typed object, e.g. type `interactive` with the interactive object as payload. */
  | { kind: 'chat'; type: string; payload: Record<string, unknown> };

export interface OutboundMessage {
  /** Our `msg_` id: chat sends it as `biz_opaque_callback_data`, rcs as `messageId` (the upstream dedupes on it). */
  clientRef: string;
  /** SMS: the 16-bit `user_message_reference` for this attempt. */
  attemptRef?: number;
  /** Recipient, E.164 with `+`. */
  to: string;
  /** Sender number, E.164 with `+`. */
  from: string;
  /**
   * Chat: the phone-number-id of the sender.
   * @defaultValue the sender's digits, which is what the sandbox uses
   */
  chatPhoneNumberId?: string;
  content: OutboundContent;
}

export interface SendAccepted {
  upstreamMessageId: string;
  /** SMS: how many `submit_sm` parts carried the text. */
  parts?: number;
  /**
   * SMS: the SMSC message id of every part, in order (the first equals `upstreamMessageId`).
   * Persist these when receipts may reach another process than the one that sent.
   */
  partIds?: string[];
  /** RCS: the upstream had already accepted this `messageId` (409 ALREADY_EXISTS). */
  alreadyAccepted?: boolean;
}

/** The adapters' names for the upstream event shapes, which `@switchboard/domain` defines once. */
export type ReceiptStatus = UpstreamReceiptStatus;
export type ProviderReceipt = UpstreamReceipt;
export type ProviderInbound = UpstreamInbound;
export type TemplateStatusUpdate = UpstreamTemplateUpdate;

export interface TemplateDraft {
  name: string;
  language: string;
  category: string;
  components: unknown[];
}

export interface TemplateCreated {
  upstreamTemplateId: string;
  status: 'pending' | 'approved' | 'rejected';
}

export interface ChatAdapter {
  send(m: OutboundMessage): Promise<SendAccepted>;
  createTemplate(t: TemplateDraft): Promise<TemplateCreated>;
}

export interface RcsAdapter {
  isReachable(to: string): Promise<boolean>;
  /** A 409 ALREADY_EXISTS resolves with `alreadyAccepted: true`. */
  send(m: OutboundMessage): Promise<SendAccepted>;
}

export interface SmsAdapter {
  send(m: OutboundMessage): Promise<SendAccepted>;
  onReceipt(handler: (r: ProviderReceipt) => Promise<void>): void;
  onInbound(handler: (i: ProviderInbound) => Promise<void>): void;
  /** Resolves once the first bind succeeded; rejects if the adapter is closed first. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface SmsSplit {
  encoding: 'gsm7' | 'ucs2';
  parts: string[];
}

export type SplitSmsIntoParts = (text: string) => SmsSplit;
