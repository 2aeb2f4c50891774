import type { WebhookEndpointRow } from './webhook-endpoints.repository';

// The rows and records of webhook deliveries and their attempts (docs/webhooks.md).
export interface WebhookDeliveryRow {
  id: string;
  event_id: string;
  account_id: string;
  target_key: string;
  endpoint_id: string | null;
  url: string;
  status: 'pending' | 'delivered' | 'failed';
  generation: number;
  attempt_count: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
  failed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface DeliveryTarget {
  /** The endpoint id, or `callback` for the resource's own callback_url. */
  targetKey: string;
  endpointId: string | null;
  url: string;
}

export interface AttemptRecord {
  deliveryId: string;
  endpointId: string | null;
  url: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseSize: number | null;
  responseExcerpt: string | null;
  at: Date;
}

export interface AttemptView {
  id: string;
  delivery_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  url: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_size: number | null;
  delivery_status: string;
  created_at: string;
}

export const CALLBACK_TARGET = 'callback';

export interface PendingDelivery {
  id: string;
  generation: number;
  /** Attempts already stored: 0 for a delivery never tried (webhook-delivery then makes its first attempt at once). */
  attempt_count: number;
}

/** A delivery with everything one attempt needs, read in one round trip. */
export interface DeliveryForAttempt {
  id: string;
  account_id: string;
  endpoint_id: string | null;
  url: string;
  status: WebhookDeliveryRow['status'];
  generation: number;
  event: { id: string; type: string; created_at: Date; data: Record<string, unknown> };
  /** Null for a callback_url delivery. */
  endpoint: Pick<WebhookEndpointRow, 'enabled' | 'deleted_at' | 'disabled_reason' | 'secret' | 'previous_secret' | 'previous_secret_expires_at'> | null;
  /** The account's callback secret; read only for a callback_url delivery. */
  callback_secret: string | null;
  /**
   * Set when a sealed secret of this delivery does not open (its key is gone, or the value was moved or
   * tampered with); the secrets are then absent. Only this delivery fails: the others read with it do not.
   */
  secrets_error?: string;
}

/** What an attempt does besides being stored, applied in the same statement. */
export interface AttemptEffects {
  /** Ends the delivery, but only while it is pending in this generation (a stale job changes nothing). */
  settle?: { generation: number; status: 'delivered' } | { generation: number; status: 'failed'; reason: string };
  /** The next try of a delivery that stays pending. */
  nextAttemptAt?: Date;
  /** A success ends the endpoint's run of failures; a failure starts or continues it. */
  endpointRun?: 'success' | 'failure';
}
