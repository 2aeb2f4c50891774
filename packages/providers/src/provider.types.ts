import type { UpstreamInbound, UpstreamReceipt } from '@switchboard/domain';

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
  /** SMS: seconds the SMSC may keep trying, from the message's remaining ttl_seconds (docs/routing.md#ttl). @defaultValue the SMSC's own */
  validitySeconds?: number;
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
  onReceipt(handler: (r: UpstreamReceipt) => Promise<void>): void;
  onInbound(handler: (i: UpstreamInbound) => Promise<void>): void;
  /** Resolves once the first bind succeeded; rejects if the adapter is closed first. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface SmsSplit {
  encoding: 'gsm7' | 'ucs2';
  parts: string[];
}

export type SplitSmsIntoParts = (text: string) => SmsSplit;
