import { parseRtpPacket } from '../src/media/rtp-packet.codec';
import { createRtpOutboundStream } from '../src/media/rtp-outbound.stream';
import { decodeTelephoneEvent } from '../src/media/telephone-event.codec';

const tick = (stream: ReturnType<typeof createRtpOutboundStream>) => {
  const packets = stream.nextTick();
  expect(packets).toHaveLength(1);
  return parseRtpPacket(packets[0])!;
};

describe('outbound RTP stream', () => {
  const base = { ssrc: 77, initialSequence: 0xfffe, initialTimestamp: 1000 };

  it('sends silence, marked first, until playback opens, then the queued audio in 20 ms frames', () => {
    const stream = createRtpOutboundStream(base);
    stream.enqueue(Buffer.alloc(200, 0x11));
    const first = tick(stream);
    expect(first).toMatchObject({ payloadType: 0, marker: true, sequence: 0xfffe, timestamp: 1000, ssrc: 77 });
    expect(first.payload.equals(Buffer.alloc(160, 0xff))).toBe(true);
    stream.openPlayback();
    const audio1 = tick(stream);
    const audio2 = tick(stream);
    const after = tick(stream);
    expect([audio1.sequence, audio2.sequence, after.sequence]).toEqual([0xffff, 0, 1]);
    expect([audio1.timestamp, audio2.timestamp, after.timestamp]).toEqual([1160, 1320, 1480]);
    expect(audio1.marker).toBe(false);
    expect(audio1.payload.equals(Buffer.alloc(160, 0x11))).toBe(true);
    expect(audio2.payload.equals(Buffer.concat([Buffer.alloc(40, 0x11), Buffer.alloc(120, 0xff)]))).toBe(true);
    expect(after.payload.equals(Buffer.alloc(160, 0xff))).toBe(true);
  });

  it('drops queued audio on clear (barge-in)', () => {
    const stream = createRtpOutboundStream(base);
    stream.openPlayback();
    stream.enqueue(Buffer.alloc(1600, 0x22));
    tick(stream);
    expect(stream.queuedFrames).toBe(9);
    expect(stream.clear()).toBe(9);
    expect(tick(stream).payload[0]).toBe(0xff);
  });

  it('sends each digit as an event sharing one timestamp, holds audio meanwhile, and keeps the clock running', () => {
    const stream = createRtpOutboundStream({ ...base, telephoneEventPayloadType: 96, dtmf: { toneMs: 40 }, interDigitGapTicks: 2 });
    stream.openPlayback();
    stream.enqueue(Buffer.alloc(160, 0x33));
    stream.queueDigits('1#');
    const packets = Array.from({ length: 14 }, () => tick(stream));
    const kinds = packets.map((p) =>
      p.payloadType === 96 ? `${decodeTelephoneEvent(p.payload)!.event}${decodeTelephoneEvent(p.payload)!.end ? 'E' : ''}` : p.payload[0] === 0x33 ? 'A' : 's',
    );
    expect(kinds).toEqual(['1', '1', '1E', '1E', '1E', 'A', 's', '11', '11', '11E', '11E', '11E', 's', 's']);
    expect(new Set(packets.slice(0, 5).map((p) => p.timestamp))).toEqual(new Set([1000]));
    expect(new Set(packets.slice(7, 12).map((p) => p.timestamp))).toEqual(new Set([1000 + 7 * 160]));
    expect(packets[0].marker && packets[7].marker).toBe(true);
    expect(packets[5].timestamp).toBe(1000 + 5 * 160);
    expect(stream.sendingDtmf).toBe(false);
  });

  it('refuses a string with a non-digit without queuing any of it', () => {
    const stream = createRtpOutboundStream(base);
    expect(() => stream.queueDigits('12x')).toThrow(RangeError);
    expect(stream.sendingDtmf).toBe(false);
  });
});
