import { planDtmfEvent } from '../src/media/dtmf-event.plan';
import { createRtpInboundHandler } from '../src/media/rtp-inbound.handler';
import { buildRtpPacket } from '../src/media/rtp-packet.codec';

function collect() {
  const events: string[] = [];
  const frames: Buffer[] = [];
  const digits: string[] = [];
  const handler = createRtpInboundHandler(
    { telephoneEventPayloadType: 96 },
    { onFirstPacket: () => events.push('first'), onAudioFrame: (f) => frames.push(f), onDigit: (d) => digits.push(d) },
  );
  return { handler, events, frames, digits };
}

const rtp = (sequence: number, payload: Buffer, payloadType = 0, timestamp = sequence * 160) =>
  buildRtpPacket({ payloadType, marker: false, sequence, timestamp, ssrc: 5, payload });

describe('inbound RTP', () => {
  it('reports the first packet once and hands out 20 ms frames from 30 ms packets', () => {
    const { handler, events, frames } = collect();
    handler.handle(rtp(1, Buffer.alloc(240, 1)));
    handler.handle(rtp(2, Buffer.alloc(240, 2)));
    expect(events).toEqual(['first']);
    expect(frames.map((f) => f.length)).toEqual([160, 160, 160]);
    expect(frames[1].subarray(0, 80).every((b) => b === 1) && frames[1].subarray(80).every((b) => b === 2)).toBe(true);
  });

  it('drops duplicates, late packets and garbage, across the sequence wrap', () => {
    const { handler, frames } = collect();
    handler.handle(rtp(0xffff, Buffer.alloc(160, 1)));
    handler.handle(rtp(0, Buffer.alloc(160, 2)));
    handler.handle(rtp(0, Buffer.alloc(160, 3)));
    handler.handle(rtp(0xfffe, Buffer.alloc(160, 4)));
    handler.handle(Buffer.from('not rtp'));
    handler.handle(rtp(1, Buffer.alloc(160, 5)));
    expect(frames.map((f) => f[0])).toEqual([1, 2, 5]);
    expect(handler.stats).toEqual({ packetsReceived: 3, packetsDropped: 3 });
  });

  it('turns an RFC 4733 event on the negotiated payload type into one digit', () => {
    const { handler, digits, frames } = collect();
    planDtmfEvent('7').forEach((p, i) =>
      handler.handle(buildRtpPacket({ payloadType: 96, marker: p.marker, sequence: 10 + i, timestamp: 8000, ssrc: 5, payload: p.payload })),
    );
    expect(digits).toEqual(['7']);
    expect(frames).toHaveLength(0);
  });
});
