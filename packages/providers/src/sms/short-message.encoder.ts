import type { SmsSplit } from '../provider.types';
import { encodeGsm7, encodeUcs2 } from './gsm7.alphabet';

const DATA_CODING_GSM7 = 0x00;
const DATA_CODING_UCS2 = 0x08;
/** esm_class bit 6: short_message starts with a User Data Header. */
const ESM_CLASS_UDH_INDICATOR = 0x40;

export interface EncodedPart {
  dataCoding: number;
  esmClass: number;
  shortMessage: Buffer;
}

/**
 * Concatenation UDH with an 8-bit reference (3GPP TS 23.040 §9.2.3.24.1):
 * UDHL=5, IEI=0x00, IEDL=3, reference, total parts, this part (1-based).
 */
export function concatenationUdh(reference: number, total: number, sequence: number): Buffer {
  return Buffer.from([0x05, 0x00, 0x03, reference & 0xff, total & 0xff, sequence & 0xff]);
}

/** Turns split text into the short_message bytes, data_coding and esm_class of each submit_sm. */
export function encodeShortMessageParts(split: SmsSplit, reference: number): EncodedPart[] {
  const dataCoding = split.encoding === 'gsm7' ? DATA_CODING_GSM7 : DATA_CODING_UCS2;
  const encode = split.encoding === 'gsm7' ? encodeGsm7 : encodeUcs2;
  if (split.parts.length <= 1) {
    return [{ dataCoding, esmClass: 0, shortMessage: encode(split.parts[0] ?? '') }];
  }
  if (split.parts.length > 255) throw new RangeError(`a concatenated SMS has at most 255 parts, got ${split.parts.length}`);
  return split.parts.map((part, index) => ({
    dataCoding,
    esmClass: ESM_CLASS_UDH_INDICATOR,
    shortMessage: Buffer.concat([concatenationUdh(reference, split.parts.length, index + 1), encode(part)]),
  }));
}
