// RTP fixed header, RFC 3550 §5.1. We send no CSRCs, extensions or padding, but parse them from peers.

export interface RtpPacket {
  payloadType: number;
  marker: boolean;
  /** 16-bit, wraps. */
  sequence: number;
  /** 32-bit, in units of the payload's clock (8 kHz for PCMU and telephone-event). */
  timestamp: number;
  ssrc: number;
  payload: Buffer;
}

const RTP_VERSION = 2;
const FIXED_HEADER_BYTES = 12;

export function buildRtpPacket(packet: RtpPacket): Buffer {
  const out = Buffer.allocUnsafe(FIXED_HEADER_BYTES + packet.payload.length);
  out[0] = RTP_VERSION << 6;
  out[1] = (packet.marker ? 0x80 : 0) | (packet.payloadType & 0x7f);
  out.writeUInt16BE(packet.sequence & 0xffff, 2);
  out.writeUInt32BE(packet.timestamp >>> 0, 4);
  out.writeUInt32BE(packet.ssrc >>> 0, 8);
  packet.payload.copy(out, FIXED_HEADER_BYTES);
  return out;
}

/** The packet, or undefined when the datagram is not a well-formed RTP version 2 packet. */
export function parseRtpPacket(datagram: Buffer): RtpPacket | undefined {
  if (datagram.length < FIXED_HEADER_BYTES || datagram[0] >> 6 !== RTP_VERSION) return undefined;
  const hasPadding = (datagram[0] & 0x20) !== 0;
  const hasExtension = (datagram[0] & 0x10) !== 0;
  const csrcCount = datagram[0] & 0x0f;
  let offset = FIXED_HEADER_BYTES + 4 * csrcCount;
  if (hasExtension) {
    if (datagram.length < offset + 4) return undefined;
    offset += 4 + 4 * datagram.readUInt16BE(offset + 2);
  }
  let end = datagram.length;
  if (hasPadding) end -= datagram[datagram.length - 1];
  if (offset > end) return undefined;
  return {
    payloadType: datagram[1] & 0x7f,
    marker: (datagram[1] & 0x80) !== 0,
    sequence: datagram.readUInt16BE(2),
    timestamp: datagram.readUInt32BE(4),
    ssrc: datagram.readUInt32BE(8),
    payload: datagram.subarray(offset, end),
  };
}
