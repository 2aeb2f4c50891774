import type { ConcreteChannel } from './channels';

/*
 * What the upstreams tell us, normalised: the providers' callback parsers produce these, the gateway
 * queues them in a provider-callback job, and the dispatcher hands them to the store. One definition
 * keeps the three hops from drifting apart.
 */

/** The states a receipt can report; `queued` and `sending` are ours alone. */
export type UpstreamReceiptStatus = 'sent' | 'delivered' | 'read' | 'failed' | 'undelivered';

/** A delivery receipt (status callback) for a message we sent. */
export interface UpstreamReceipt {
  channel: ConcreteChannel;
  upstreamMessageId: string;
  /** Our `msg_` id when the upstream echoes it (chat `biz_opaque_callback_data`, RBM `messageId`). */
  clientRef?: string;
  /** SMS: the `user_message_reference` the SMSC echoed. */
  attemptRef?: number;
  /**
   * SMS: the receipted part's own SMSC id, and how many parts its message has, when the adapter knows the
   * message went out in several parts; `upstreamMessageId` is then the first part's id (docs/routing.md#multi-part-sms).
   */
  partId?: string;
  parts?: number;
  recipient?: string;
  status: UpstreamReceiptStatus;
  carrierStatusCode: string;
  errorCode?: string;
  errorMessage?: string;
  /** ISO 8601 */
  occurredAt: string;
}

/**
 * A message a customer sent to one of our numbers.
 * @typeParam TReceivedAt - `string` (ISO 8601) on the wire and in jobs; the store takes a `Date`.
 */
export interface UpstreamInbound<TReceivedAt = string> {
  channel: ConcreteChannel;
  upstreamId: string;
  /** The customer, E.164 with `+`. */
  from: string;
  /** Our business number, E.164 with `+` (rcs: see the providers' `parseRbmEvent`). */
  to: string;
  /** `text`, `reply` (a button, list row or suggestion picked), `location`, or the upstream media type. */
  type: string;
  text?: string;
  reply?: { id: string; title: string };
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  media?: { id?: string; mime_type?: string; caption?: string };
  /** The upstream id of the message the customer answered (the Cloud API's `context.id`). */
  contextUpstreamId?: string;
  receivedAt: TReceivedAt;
}

/** The upstream's review verdict on a template we submitted. */
export interface UpstreamTemplateUpdate {
  upstreamTemplateId: string;
  name: string;
  language: string;
  status: 'approved' | 'rejected';
  reason?: string;
}
