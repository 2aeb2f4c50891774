import { toIso } from '@switchboard/domain';
import { partsDelivered } from './message-progress';
import type { AttemptRow, MessageRow } from './message-rows';

export type { AttemptRow, MessageRow } from './message-rows';

/** One entry of `attempts` (docs/messages.md#reading-messages). */
export interface AttemptResource {
  channel: string;
  status: string;
  error_code: string | null;
  at: string;
  /** SMS only: how many parts carried the text, and how many of them were reported delivered. */
  parts?: number;
  parts_delivered?: number;
}

function toAttemptResource(a: AttemptRow): AttemptResource {
  const resource: AttemptResource = { channel: a.channel, status: a.status, error_code: a.error_code, at: toIso(a.updated_at) as string };
  if (a.channel !== 'sms') return resource;
  const multipart = (a.upstream_part_ids?.length ?? 0) > 1;
  resource.parts = multipart ? (a.upstream_part_ids as string[]).length : 1;
  resource.parts_delivered = multipart ? partsDelivered(a) : a.status === 'delivered' || a.status === 'read' ? 1 : 0;
  return resource;
}

/** The message as `GET /v1/messages/{id}` shows it (docs/messages.md#reading-messages). */
export interface MessageResource {
  id: string;
  status: string;
  channel: string;
  channel_used: string | null;
  recipient: string;
  carrier_status_code: string | null;
  sent_at: string | null;
  delivered_at: string | null;
  read_at: string | null;
  created_at: string;
  updated_at: string;
  cost_units: number;
  traffic_class: 'transactional' | 'bulk';
  metadata: Record<string, string>;
  error: { code: string; message: string } | null;
  attempts: AttemptResource[];
}

export function toMessageResource(row: MessageRow, attempts: AttemptRow[]): MessageResource {
  return {
    id: row.id,
    status: row.status,
    channel: row.channel,
    channel_used: row.channel_used,
    recipient: row.recipient,
    carrier_status_code: row.carrier_status_code,
    sent_at: toIso(row.sent_at),
    delivered_at: toIso(row.delivered_at),
    read_at: toIso(row.read_at),
    created_at: toIso(row.created_at) as string,
    updated_at: toIso(row.updated_at) as string,
    cost_units: row.cost_units,
    traffic_class: row.traffic_class,
    metadata: row.metadata ?? {},
    error: row.error_code ? { code: row.error_code, message: row.error_message ?? '' } : null,
    attempts: attempts.map(toAttemptResource),
  };
}

/** The same shape for a message still waiting in the queue, before the dispatcher persisted it. */
export function queuedMessageResource(fields: {
  id: string;
  channel: string;
  recipient: string;
  created_at: string;
  cost_units: number;
  metadata?: Record<string, string>;
  /** A job from before lanes existed carries none: it is transactional. */
  traffic_class?: 'transactional' | 'bulk';
  /** `scheduled` while quiet hours hold the job back (docs/routing.md#quiet-hours). @defaultValue `queued` */
  status?: 'queued' | 'scheduled';
}): MessageResource {
  return {
    id: fields.id,
    status: fields.status ?? 'queued',
    channel: fields.channel,
    channel_used: null,
    recipient: fields.recipient,
    carrier_status_code: null,
    sent_at: null,
    delivered_at: null,
    read_at: null,
    created_at: fields.created_at,
    updated_at: fields.created_at,
    cost_units: fields.cost_units,
    traffic_class: fields.traffic_class ?? 'transactional',
    metadata: fields.metadata ?? {},
    error: null,
    attempts: [],
  };
}
