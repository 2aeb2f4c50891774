/**
 * Where a submit_sm sits in a concatenated (long) message. SMPP carries this either in a UDH
 * information element (IEI 0x00 with an 8-bit reference, IEI 0x08 with a 16-bit one; 3GPP TS 23.040
 * §9.2.3.24.1) or in the sar_* TLVs (SMPP 3.4 §5.3.2.22–24).
 */
export interface ConcatPart {
  reference: number;
  total: number;
  /** 1-based. */
  seq: number;
}

/** Reads the concatenation element from the UDH information elements the smpp package decoded. */
export function concatFromUdh(elements: readonly Buffer[] | undefined): ConcatPart | null {
  for (const ie of elements ?? []) {
    if (ie[0] === 0x00 && ie[1] === 0x03 && ie.length >= 5) return valid({ reference: ie[2], total: ie[3], seq: ie[4] });
    if (ie[0] === 0x08 && ie[1] === 0x04 && ie.length >= 6) return valid({ reference: ie.readUInt16BE(2), total: ie[4], seq: ie[5] });
  }
  return null;
}

export function concatFromSar(fields: { sar_msg_ref_num?: unknown; sar_total_segments?: unknown; sar_segment_seqnum?: unknown }): ConcatPart | null {
  const { sar_msg_ref_num: reference, sar_total_segments: total, sar_segment_seqnum: seq } = fields;
  if (typeof reference !== 'number' || typeof total !== 'number' || typeof seq !== 'number') return null;
  return valid({ reference, total, seq });
}

function valid(part: ConcatPart): ConcatPart | null {
  return part.total >= 1 && part.seq >= 1 && part.seq <= part.total ? part : null;
}
