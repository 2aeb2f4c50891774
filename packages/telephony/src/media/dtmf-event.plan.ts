import { encodeTelephoneEvent, eventOfDigit } from './telephone-event.codec';

/** One RTP packet of a telephone event, sent on one 20 ms tick; all packets of an event share its RTP timestamp. */
export interface DtmfPacketPlan {
  marker: boolean;
  payload: Buffer;
}

export interface DtmfEventOptions {
  /** @defaultValue 100 (long enough for every receiver we know; RFC 4733 leaves it to the sender) */
  toneMs?: number;
  /** @defaultValue 10 (-10 dBm0) */
  volume?: number;
  /** @defaultValue 20 */
  packetMs?: number;
}

const SAMPLES_PER_MS = 8;
/** RFC 4733 §2.5.1.4: the final packet is sent three times, because it carries the event's full duration. */
const END_PACKET_COPIES = 3;

/**
 * The packets of one DTMF digit, one per tick: updates with a growing duration (the first one marked, §2.5.1.2),
 * then three identical end packets.
 */
export function planDtmfEvent(digit: string, options: DtmfEventOptions = {}): DtmfPacketPlan[] {
  const event = eventOfDigit(digit);
  if (event === undefined) throw new RangeError(`not a DTMF digit: ${JSON.stringify(digit)}`);
  const packetMs = options.packetMs ?? 20;
  const volume = options.volume ?? 10;
  const updates = Math.max(1, Math.round((options.toneMs ?? 100) / packetMs));
  const packets: DtmfPacketPlan[] = [];
  for (let i = 1; i <= updates; i++) {
    const payload = encodeTelephoneEvent({ event, end: false, volume, duration: i * packetMs * SAMPLES_PER_MS });
    packets.push({ marker: i === 1, payload });
  }
  const endPayload = encodeTelephoneEvent({ event, end: true, volume, duration: updates * packetMs * SAMPLES_PER_MS });
  for (let i = 0; i < END_PACKET_COPIES; i++) packets.push({ marker: false, payload: endPayload });
  return packets;
}
