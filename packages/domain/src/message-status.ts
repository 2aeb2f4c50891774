/**
 * Message lifecycle (docs/messages.md#message-states): (scheduled → canceled, or scheduled →) queued → sending → sent → delivered → read, with `failed`
 * (never reached the network or handset) and `undelivered` (the network could not deliver it).
 * Status only moves forward: a transition to a lower rank is ignored, though its timestamp may still fill a gap.
 */
export const MESSAGE_STATUSES = ['scheduled', 'queued', 'sending', 'sent', 'delivered', 'read', 'failed', 'undelivered', 'canceled'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

const RANK: Record<MessageStatus, number> = {
  // Delayed by quiet hours (docs/routing.md#quiet-hours): shown from the waiting job, never stored.
  scheduled: -1,
  queued: 0,
  sending: 1,
  sent: 2,
  failed: 3,
  undelivered: 3,
  // Canceled while scheduled (docs/messages.md#canceling-a-scheduled-message): never sent, so nothing follows it.
  canceled: 3,
  // A late positive confirmation from the handset outranks a network's earlier give-up.
  delivered: 4,
  read: 5,
};

export function statusRank(status: MessageStatus): number {
  return RANK[status];
}

export function canAdvance(from: MessageStatus, to: MessageStatus): boolean {
  return RANK[to] > RANK[from];
}

export function isFinal(status: MessageStatus): boolean {
  return status === 'read' || status === 'failed' || status === 'canceled';
}

/** The timestamp column each status fills. */
export const STATUS_TIMESTAMP: Record<MessageStatus, string> = {
  scheduled: 'created_at',
  queued: 'created_at',
  sending: 'sending_at',
  sent: 'sent_at',
  delivered: 'delivered_at',
  read: 'read_at',
  failed: 'failed_at',
  undelivered: 'undelivered_at',
  canceled: 'canceled_at',
};

/** Which events a status change produces (docs/webhooks.md#events): failed and undelivered share message.failed. */
export function eventTypeForStatus(status: MessageStatus): string | null {
  switch (status) {
    case 'sent':
      return 'message.sent';
    case 'delivered':
      return 'message.delivered';
    case 'read':
      return 'message.read';
    case 'failed':
    case 'undelivered':
      return 'message.failed';
    case 'canceled':
      return 'message.canceled';
    default:
      return null;
  }
}
