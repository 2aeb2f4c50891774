/** The rows of `messages` and `message_attempts` as `pg` returns them; kept apart so readers of rows need no resource code. */
export interface MessageRow {
  id: string;
  account_id: string;
  mode: 'live' | 'test';
  status: string;
  channel: string;
  channel_used: string | null;
  plan: string[];
  senders: Record<string, { e164: string; chat_phone_number_id?: string }>;
  recipient: string;
  content: Record<string, unknown> | null;
  template: Record<string, unknown> | null;
  callback_url: string | null;
  ttl_seconds: number | null;
  fallback_timeout_seconds: number | null;
  metadata: Record<string, string> | null;
  cost_units: number;
  /** Migration 011 (docs/messages.md#traffic-lanes). */
  traffic_class: 'transactional' | 'bulk';
  carrier_status_code: string | null;
  error_code: string | null;
  error_message: string | null;
  sequence: number;
  created_at: Date;
  updated_at: Date;
  sending_at: Date | null;
  sent_at: Date | null;
  delivered_at: Date | null;
  read_at: Date | null;
  failed_at: Date | null;
  undelivered_at: Date | null;
  /** Migration 008: set when a scheduled message was canceled (docs/messages.md#canceling-a-scheduled-message). */
  canceled_at?: Date | null;
}

export interface AttemptRow {
  id: string;
  message_id: string;
  attempt_no: number;
  channel: string;
  status: string;
  upstream_message_id: string | null;
  attempt_ref: number | null;
  sender: string | null;
  error_code: string | null;
  error_message: string | null;
  /** SMS sent in several parts: every part's SMSC id (migration 002). */
  upstream_part_ids: string[] | null;
  /** The furthest receipt status per part id (docs/routing.md#multi-part-sms). */
  part_statuses: Record<string, string>;
  /** When the message left this attempt (fallback timeout, ttl expiry); its receipts no longer move the message. */
  abandoned_at: Date | null;
  created_at: Date;
  updated_at: Date;
}
