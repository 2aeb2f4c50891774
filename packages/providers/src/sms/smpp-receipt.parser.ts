import type { UpstreamReceiptStatus } from '@switchboard/domain';

export interface SmppReceiptText {
  id: string;
  stat: string;
  err: string;
  submitDate?: string;
  doneDate?: string;
}

/**
 * Field names of the receipt text (SMPP v3.4 Appendix B). "submit date" and "done date"
 * contain a space, so they are matched before the one-word names.
 */
const FIELD = /\b(submit\s+date|done\s+date|id|sub|dlvrd|stat|err|text)\s*:\s*/gi;

/**
 * Parses `id:… sub:… dlvrd:… submit date:… done date:… stat:… err:… text:…`.
 * Lenient as SMSCs are: any order, any case, extra spaces, missing fields. `text:` is last
 * and free-form, so it ends parsing. A missing `err` is '' (unknown, not "no error").
 * Returns null without an id or a stat.
 */
export function parseSmppReceiptText(text: string): SmppReceiptText | null {
  if (typeof text !== 'string') return null;
  const fields = new Map<string, string>();
  const matches = [...text.matchAll(FIELD)];
  for (let i = 0; i < matches.length; i++) {
    const match = matches[i];
    const name = match[1].toLowerCase().replace(/\s+/, ' ');
    if (fields.has(name)) continue;
    const start = (match.index ?? 0) + match[0].length;
    if (name === 'text') {
      fields.set(name, text.slice(start));
      break;
    }
    const end = i + 1 < matches.length ? (matches[i + 1].index ?? text.length) : text.length;
    fields.set(name, text.slice(start, end).trim());
  }
  const id = fields.get('id');
  const stat = fields.get('stat')?.toUpperCase();
  if (!id || !stat) return null;
  const receipt: SmppReceiptText = { id, stat, err: fields.get('err') ?? '' };
  const submitDate = fields.get('submit date');
  const doneDate = fields.get('done date');
  if (submitDate) receipt.submitDate = submitDate;
  if (doneDate) receipt.doneDate = doneDate;
  return receipt;
}

const STAT_STATUS: Readonly<Record<string, UpstreamReceiptStatus>> = {
  DELIVRD: 'delivered',
  UNDELIV: 'undelivered',
  EXPIRED: 'undelivered',
  DELETED: 'undelivered',
  UNKNOWN: 'undelivered',
  REJECTD: 'failed',
  ENROUTE: 'sent',
  ACCEPTD: 'sent',
};

/** Receipt `stat` → our status; undefined for a value no SMSC should send. */
export function statToStatus(stat: string): UpstreamReceiptStatus | undefined {
  return STAT_STATUS[stat.toUpperCase()];
}

/** `message_state` TLV (SMPP v3.4 §5.2.28) → the matching receipt `stat`. */
const MESSAGE_STATE_STAT: Readonly<Record<number, string>> = {
  1: 'ENROUTE',
  2: 'DELIVRD',
  3: 'EXPIRED',
  4: 'DELETED',
  5: 'UNDELIV',
  6: 'ACCEPTD',
  7: 'UNKNOWN',
  8: 'REJECTD',
};

export function messageStateToStat(state: number): string | undefined {
  return MESSAGE_STATE_STAT[state];
}
