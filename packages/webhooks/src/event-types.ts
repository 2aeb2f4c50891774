/** Event types (docs/webhooks.md#events); subscriptions may name these or `*`. */
export const EVENT_TYPES = [
  'message.sent',
  'message.delivered',
  'message.read',
  'message.failed',
  'message.fallback',
  'message.canceled',
  'message.inbound',
  'call.ringing',
  'call.answered',
  'call.completed',
  'call.failed',
  'call.recording_ready',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const ALL_EVENTS = '*';

export function isSubscribableEventType(value: unknown): value is EventType | typeof ALL_EVENTS {
  return value === ALL_EVENTS || (EVENT_TYPES as readonly unknown[]).includes(value);
}

/** The envelope every delivery carries (docs/webhooks.md#envelope-and-headers). */
export interface EventEnvelope {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}
