// RFC 4733 §2.3 telephone-event payload: event (8 bits), end bit, reserved bit, volume (6 bits), duration (16 bits).

export interface TelephoneEvent {
  /** Event code: 0-9 digits, 10 `*`, 11 `#`, 12-15 `A`-`D`, 16 flash (RFC 4733 §3.2). */
  event: number;
  end: boolean;
  /** Power level in -dBm0, 0-63. */
  volume: number;
  /** In timestamp units (8 kHz): how long the event has lasted so far. */
  duration: number;
}

const DIGITS = '0123456789*#ABCD';

/** The DTMF digit for an event code, or undefined for a non-digit event such as flash. */
export function digitOfEvent(event: number): string | undefined {
  return DIGITS[event];
}

/** The event code of a DTMF digit (`0-9`, `*`, `#`, `A-D`), or undefined for anything else. */
export function eventOfDigit(digit: string): number | undefined {
  const index = DIGITS.indexOf(digit.toUpperCase());
  return digit.length === 1 && index >= 0 ? index : undefined;
}

export function encodeTelephoneEvent(event: TelephoneEvent): Buffer {
  const out = Buffer.allocUnsafe(4);
  out[0] = event.event & 0xff;
  out[1] = (event.end ? 0x80 : 0) | (event.volume & 0x3f);
  out.writeUInt16BE(Math.min(event.duration, 0xffff), 2);
  return out;
}

/** The event, or undefined when the payload is shorter than 4 bytes. */
export function decodeTelephoneEvent(payload: Buffer): TelephoneEvent | undefined {
  if (payload.length < 4) return undefined;
  return { event: payload[0], end: (payload[1] & 0x80) !== 0, volume: payload[1] & 0x3f, duration: payload.readUInt16BE(2) };
}
