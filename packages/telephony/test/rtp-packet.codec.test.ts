import { buildRtpPacket, parseRtpPacket } from '../src/media/rtp-packet.codec';

describe('RTP packet (RFC 3550)', () => {
  const payload = Buffer.alloc(160, 0xff);

  it('writes the fixed header: version 2, marker, payload type, sequence, timestamp, SSRC', () => {
    const bytes = buildRtpPacket({ payloadType: 0, marker: true, sequence: 0x1234, timestamp: 0xdeadbeef, ssrc: 0x01020304, payload });
    expect(bytes.length).toBe(172);
    expect(bytes.subarray(0, 12).toString('hex')).toBe('80801234deadbeef01020304');
  });

  it('round-trips through the parser, wrapping the sequence at 16 bits', () => {
    const bytes = buildRtpPacket({ payloadType: 101, marker: false, sequence: 0x1ffff, timestamp: 160, ssrc: 0xffffffff, payload });
    const parsed = parseRtpPacket(bytes);
    expect(parsed).toMatchObject({ payloadType: 101, marker: false, sequence: 0xffff, timestamp: 160, ssrc: 0xffffffff });
    expect(parsed?.payload.equals(payload)).toBe(true);
  });

  it('skips CSRCs and a header extension, and strips padding', () => {
    const header = Buffer.from('b2000001000000a000000007', 'hex'); // V=2 P=1 X=1 CC=2
    const csrcs = Buffer.alloc(8);
    const extension = Buffer.from('bede0001aabbccdd', 'hex');
    const body = Buffer.from([1, 2, 3]);
    const padding = Buffer.from([0, 0, 3]);
    const parsed = parseRtpPacket(Buffer.concat([header, csrcs, extension, body, padding]));
    expect(parsed?.payload).toEqual(body);
    expect(parsed?.ssrc).toBe(7);
  });

  it('rejects short datagrams, other versions and lengths that do not add up', () => {
    expect(parseRtpPacket(Buffer.alloc(11))).toBeUndefined();
    expect(parseRtpPacket(Buffer.from('400000010000000000000000', 'hex'))).toBeUndefined();
    expect(parseRtpPacket(Buffer.from('8f0000010000000000000000', 'hex'))).toBeUndefined();
  });
});
