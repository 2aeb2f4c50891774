import type { PDU } from 'smpp';
import type { UpstreamReceipt } from '@switchboard/domain';
import { messageStateToStat, parseSmppReceiptText, statToStatus } from './smpp-receipt.parser';

/** One MO short message, possibly one part of a concatenated text. */
export interface MoPiece {
  source: string;
  destination: string;
  text: string;
  smscId?: string;
  concat?: { reference: number; total: number; sequence: number };
}

export type DeliverSmContent = { kind: 'receipt'; receipt: UpstreamReceipt } | { kind: 'mo'; piece: MoPiece } | { kind: 'unreadable'; reason: string };

/** esm_class bits 5-2, the message type; 0 is a normal (mobile-originated) message, anything else an SMSC report. */
const ESM_MESSAGE_TYPE_MASK = 0x3c;

function plus(address: unknown): string {
  const digits = typeof address === 'string' ? address : '';
  return digits.startsWith('+') ? digits : `+${digits}`;
}

function decodeField(field: unknown): { text: string; udh: Buffer[] } | undefined {
  if (!field || typeof field !== 'object' || !('message' in field)) return undefined;
  const { message, udh } = field as { message: unknown; udh?: unknown };
  // node-smpp leaves the bytes undecoded for a data_coding it does not know.
  const text = typeof message === 'string' ? message : Buffer.isBuffer(message) ? message.toString('latin1') : '';
  return { text, udh: Array.isArray(udh) ? (udh as Buffer[]) : [] };
}

/** node-smpp decodes short_message / message_payload to `{ udh?, message }`; long texts may come in message_payload. */
function decodedMessage(pdu: PDU): { text: string; udh: Buffer[] } {
  const short = decodeField(pdu.short_message);
  if (short && short.text !== '') return short;
  return decodeField(pdu.message_payload) ?? short ?? { text: '', udh: [] };
}

/** Concatenation information element, 8-bit (IEI 0x00) or 16-bit (IEI 0x08) reference. */
function concatInfo(udh: Buffer[]): MoPiece['concat'] {
  for (const element of udh) {
    if (element[0] === 0x00 && element.length >= 5) return { reference: element[2], total: element[3], sequence: element[4] };
    if (element[0] === 0x08 && element.length >= 6) return { reference: element.readUInt16BE(2), total: element[4], sequence: element[5] };
  }
  return undefined;
}

function readReceipt(pdu: PDU, text: string, receivedAt: string, firstIdOf: (id: string) => string, partsOf: (id: string) => number): DeliverSmContent {
  const parsed = parseSmppReceiptText(text);
  // The TLV carries the id exactly as submit_sm_resp gave it; some SMSCs print a decimal form in the text.
  const tlvId = typeof pdu.receipted_message_id === 'string' && pdu.receipted_message_id !== '' ? pdu.receipted_message_id : undefined;
  const id = tlvId ?? parsed?.id;
  const stat = parsed?.stat ?? (typeof pdu.message_state === 'number' ? messageStateToStat(pdu.message_state) : undefined);
  const status = stat ? statToStatus(stat) : undefined;
  if (!id || !stat || !status) return { kind: 'unreadable', reason: `receipt without a usable id or stat: ${text.slice(0, 120)}` };
  const err = parsed?.err ?? '';
  const receipt: UpstreamReceipt = {
    channel: 'sms',
    upstreamMessageId: firstIdOf(id),
    recipient: plus(pdu.source_addr),
    status,
    carrierStatusCode: err ? `${stat}:${err}` : stat,
    // The done date has minute resolution and no zone; the arrival time is the better clock.
    occurredAt: receivedAt,
  };
  if (typeof pdu.user_message_reference === 'number') receipt.attemptRef = pdu.user_message_reference;
  const parts = partsOf(id);
  if (parts > 1) {
    receipt.partId = id;
    receipt.parts = parts;
  }
  if (status === 'failed' || status === 'undelivered') {
    receipt.errorCode = err && !/^0+$/.test(err) ? err : stat;
    receipt.errorMessage = `SMSC reported ${stat}${err ? ` (err ${err})` : ''}`;
  }
  return { kind: 'receipt', receipt };
}

/** Sorts a deliver_sm into a delivery receipt or a mobile-originated message. */
export function readDeliverSm(pdu: PDU, receivedAt: string, firstIdOf: (id: string) => string, partsOf: (id: string) => number = () => 1): DeliverSmContent {
  const esmClass = typeof pdu.esm_class === 'number' ? pdu.esm_class : 0;
  const { text, udh } = decodedMessage(pdu);
  if ((esmClass & ESM_MESSAGE_TYPE_MASK) !== 0) return readReceipt(pdu, text, receivedAt, firstIdOf, partsOf);
  const source = typeof pdu.source_addr === 'string' ? pdu.source_addr : '';
  const destination = typeof pdu.destination_addr === 'string' ? pdu.destination_addr : '';
  if (!source) return { kind: 'unreadable', reason: 'mobile-originated message without source_addr' };
  const piece: MoPiece = { source: plus(source), destination: plus(destination), text };
  const concat = concatInfo(udh);
  if (concat && concat.total > 1) piece.concat = concat;
  if (typeof pdu.receipted_message_id === 'string' && pdu.receipted_message_id !== '') piece.smscId = pdu.receipted_message_id;
  return { kind: 'mo', piece };
}
