/**
 * The delivery receipt text of SMPP 3.4 Appendix B, which every ESME parses:
 * `id:<id> sub:001 dlvrd:001 submit date:YYMMDDhhmm done date:YYMMDDhhmm stat:DELIVRD err:000 text:<20 chars>`.
 */

export type ReceiptStat = 'DELIVRD' | 'EXPIRED' | 'DELETED' | 'UNDELIV' | 'ACCEPTD' | 'UNKNOWN' | 'REJECTD' | 'ENROUTE';

export interface ReceiptFields {
  messageId: string;
  submittedAt: Date;
  doneAt: Date;
  stat: ReceiptStat;
  /** Network error code, at most three digits. */
  err?: number;
  /** Original text; only its first 20 characters are echoed, as Appendix B specifies. */
  text: string;
  delivered?: boolean;
}

const two = (n: number) => String(n).padStart(2, '0');

/** YYMMDDhhmm in UTC. */
export function receiptDate(date: Date): string {
  return `${two(date.getUTCFullYear() % 100)}${two(date.getUTCMonth() + 1)}${two(date.getUTCDate())}${two(date.getUTCHours())}${two(date.getUTCMinutes())}`;
}

export function formatReceiptText(fields: ReceiptFields): string {
  const delivered = fields.delivered ?? fields.stat === 'DELIVRD';
  // The receipt goes out GSM-7 coded; characters outside printable ASCII would not survive, so they become '?'.
  const echo = Array.from(fields.text)
    .slice(0, 20)
    .join('')
    .replace(/[^\x20-\x7e]/g, '?');
  const err = String(fields.err ?? 0).padStart(3, '0');
  return (
    `id:${fields.messageId} sub:001 dlvrd:${delivered ? '001' : '000'} ` +
    `submit date:${receiptDate(fields.submittedAt)} done date:${receiptDate(fields.doneAt)} ` +
    `stat:${fields.stat} err:${err} text:${echo}`
  );
}
