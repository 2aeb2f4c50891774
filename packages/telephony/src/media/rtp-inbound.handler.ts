import { createAudioReframer } from './audio-frame.reframer';
import { parseRtpPacket } from './rtp-packet.codec';
import { createTelephoneEventDetector } from './telephone-event.detector';

export interface RtpInboundListener {
  /** The first valid RTP packet of the call, of any payload type: the proof that media flows both ways. */
  onFirstPacket(): void;
  /** One 20 ms μ-law frame of the callee's audio, in arrival order. */
  onAudioFrame(frame: Buffer): void;
  onDigit(digit: string): void;
}

export interface RtpInboundHandler {
  handle(datagram: Buffer): void;
  readonly stats: { packetsReceived: number; packetsDropped: number };
}

/** Compares 16-bit sequence numbers across the wrap (RFC 3550 appendix A.1). */
function isNewer(sequence: number, than: number): boolean {
  const delta = (sequence - than) & 0xffff;
  return delta !== 0 && delta < 0x8000;
}

/**
 * Turns datagrams from the callee into frames and digits. Duplicated and late packets (older than the newest
 * one seen) are dropped rather than reordered: on a call leg a missed frame is better than a delayed one.
 */
export function createRtpInboundHandler(
  opts: { audioPayloadType?: number; telephoneEventPayloadType?: number },
  listener: RtpInboundListener,
): RtpInboundHandler {
  const audioPt = opts.audioPayloadType ?? 0;
  const eventPt = opts.telephoneEventPayloadType ?? 101;
  const reframer = createAudioReframer();
  const detector = createTelephoneEventDetector();
  const stats = { packetsReceived: 0, packetsDropped: 0 };
  let newest: { ssrc: number; sequence: number } | undefined;

  return {
    handle(datagram) {
      const packet = parseRtpPacket(datagram);
      if (!packet) {
        stats.packetsDropped++;
        return;
      }
      if (newest && newest.ssrc === packet.ssrc && !isNewer(packet.sequence, newest.sequence)) {
        stats.packetsDropped++;
        return;
      }
      if (!newest) listener.onFirstPacket();
      newest = { ssrc: packet.ssrc, sequence: packet.sequence };
      stats.packetsReceived++;
      if (packet.payloadType === audioPt) {
        for (const frame of reframer.push(packet.payload)) listener.onAudioFrame(frame);
      } else if (packet.payloadType === eventPt) {
        const digit = detector.accept(packet);
        if (digit !== undefined) listener.onDigit(digit);
      }
    },
    stats,
  };
}
