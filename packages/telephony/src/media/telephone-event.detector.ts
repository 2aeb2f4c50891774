import type { RtpPacket } from './rtp-packet.codec';
import { decodeTelephoneEvent, digitOfEvent } from './telephone-event.codec';

export interface TelephoneEventDetector {
  /** The digit when this packet starts a new event, otherwise undefined (an update, an end packet or a repeat). */
  accept(packet: RtpPacket): string | undefined;
}

/**
 * Turns RFC 4733 packets into one digit per event. Every packet of an event carries the event's start timestamp
 * (§2.5.1.1), so an event is known by (SSRC, timestamp): the first packet seen reports the digit, whether or not
 * it is the marked one (that one can be lost), and the updates and the three end packets are ignored.
 */
export function createTelephoneEventDetector(opts: { rememberedEvents?: number } = {}): TelephoneEventDetector {
  const capacity = opts.rememberedEvents ?? 64;
  const seen = new Set<string>();
  return {
    accept(packet) {
      const event = decodeTelephoneEvent(packet.payload);
      if (!event) return undefined;
      const key = `${packet.ssrc}:${packet.timestamp}`;
      if (seen.has(key)) return undefined;
      seen.add(key);
      if (seen.size > capacity) seen.delete(seen.values().next().value as string);
      return digitOfEvent(event.event);
    },
  };
}
