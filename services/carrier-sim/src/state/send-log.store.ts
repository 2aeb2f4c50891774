import type { Channel } from '../behaviour/number-behaviour';

export type SendOutcome = 'accepted' | 'rejected' | 'throttled';

/** One upstream send attempt, in the shape `GET /sim/sends` returns. */
export interface SendRecord {
  channel: Channel;
  /** Recipient as +E.164. */
  to: string;
  /** Sender: +E.164 for chat and sms (alphanumeric sms senders stay as sent), the agentId for rcs. */
  from: string;
  type: string;
  text: string | null;
  /** chat: biz_opaque_callback_data; rcs: messageId; sms: user_message_reference as a string. */
  client_ref: string | null;
  upstream_message_id: string | null;
  outcome: SendOutcome;
  error_code: string | null;
  parts: number;
  /** sms: the submit_sm validity_period, in seconds from its arrival, when one was given. */
  validity_seconds?: number;
  at: string;
}

export interface SendFilter {
  channel?: string;
  to?: string;
  client_ref?: string;
}

/** Details kept for the simulator's own use (reply context), never listed. */
export interface SendDetail {
  interactiveType?: string;
  listRows?: ReadonlyArray<{ id: string; title: string; description?: string }>;
}

export interface SendLogStore {
  add(record: SendRecord, detail?: SendDetail): SendRecord;
  list(filter?: SendFilter): SendRecord[];
  clear(): void;
  /** Throttled attempts for (channel, to) since that pair's last accepted send. */
  throttledSinceAccepted(channel: Channel, to: string): number;
  latestAccepted(channel: Channel, match: (record: SendRecord) => boolean): SendRecord | undefined;
  /** The latest accepted send with this client reference (RBM messageId, chat biz_opaque_callback_data). */
  acceptedByClientRef(channel: Channel, clientRef: string): SendRecord | undefined;
  detailOf(record: SendRecord): SendDetail | undefined;
}

/** Oldest attempts are dropped past this many so a long-running demo cannot grow without bound. */
const MAX_RECORDS = 100_000;
/**
 * They are dropped a tenth at a time: trimming on every add past the maximum copied the whole log on every
 * send once a long run had filled it.
 */
const TRIM_SLACK = MAX_RECORDS / 10;

export function toE164(value: string): string {
  const trimmed = value.trim();
  if (/^\+?\d+$/.test(trimmed)) return `+${trimmed.replace(/^\+/, '')}`;
  return trimmed;
}

/**
 * The send log plus two indexes kept as records arrive, so that the per-send checks (throttle count,
 * duplicate messageId, reply context) cost O(1) instead of a scan of the whole log.
 */
export function createSendLogStore(): SendLogStore {
  let records: SendRecord[] = [];
  const details = new WeakMap<SendRecord, SendDetail>();
  const throttledByPair = new Map<string, number>();
  const acceptedByRef = new Map<string, SendRecord>();
  const pairKey = (channel: string, to: string) => `${channel}\u0000${to}`;
  return {
    add(record, detail) {
      records.push(record);
      if (detail && (detail.interactiveType !== undefined || detail.listRows !== undefined)) details.set(record, detail);
      const pair = pairKey(record.channel, record.to);
      if (record.outcome === 'accepted') {
        throttledByPair.delete(pair);
        if (record.client_ref !== null) acceptedByRef.set(pairKey(record.channel, record.client_ref), record);
      } else if (record.outcome === 'throttled') {
        throttledByPair.set(pair, (throttledByPair.get(pair) ?? 0) + 1);
      }
      if (records.length > MAX_RECORDS + TRIM_SLACK) {
        const dropped = records.length - MAX_RECORDS;
        // The duplicate-messageId index forgets what the log forgets, or it would be the unbounded part.
        for (let i = 0; i < dropped; i += 1) {
          const old = records[i];
          if (old.client_ref !== null && old.outcome === 'accepted') {
            const key = pairKey(old.channel, old.client_ref);
            if (acceptedByRef.get(key) === old) acceptedByRef.delete(key);
          }
        }
        records = records.slice(dropped);
      }
      return record;
    },
    list(filter = {}) {
      const to = filter.to ? toE164(filter.to) : undefined;
      return records.filter(
        (r) =>
          (!filter.channel || r.channel === filter.channel) && (!to || r.to === to) && (filter.client_ref === undefined || r.client_ref === filter.client_ref),
      );
    },
    clear() {
      records = [];
      throttledByPair.clear();
      acceptedByRef.clear();
    },
    throttledSinceAccepted(channel, to) {
      return throttledByPair.get(pairKey(channel, to)) ?? 0;
    },
    latestAccepted(channel, match) {
      for (let i = records.length - 1; i >= 0; i -= 1) {
        const r = records[i];
        if (r.channel === channel && r.outcome === 'accepted' && match(r)) return r;
      }
      return undefined;
    },
    acceptedByClientRef(channel, clientRef) {
      return acceptedByRef.get(pairKey(channel, clientRef));
    },
    detailOf(record) {
      return details.get(record);
    },
  };
}
