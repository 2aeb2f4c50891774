import { createSocket, type Socket } from 'node:dgram';
import { once } from 'node:events';
import {
  buildRtpPacket,
  decodeTelephoneEvent,
  encodeTelephoneEvent,
  FRAME_BYTES,
  openThreadedRtpSession,
  parseRtpPacket,
  type RtpPacket,
  type RtpSession,
} from '../src';

// The media thread (docs/voice-telephony.md#media-thread) against a plain UDP peer on loopback. Under ts-jest the thread runs
// the build in dist/, so build first (npx tsc -b tsconfig.build.json).
jest.setTimeout(20_000);

const SILENCE = 0xff;
const frame = (i: number) => Buffer.alloc(FRAME_BYTES, i % 0x7f);
const isSilence = (payload: Buffer) => payload.every((b) => b === SILENCE);

async function udpPeer(): Promise<{ socket: Socket; port: number; packets: RtpPacket[] }> {
  const socket = createSocket('udp4');
  const packets: RtpPacket[] = [];
  socket.on('message', (datagram) => {
    const packet = parseRtpPacket(datagram);
    if (packet) packets.push({ ...packet, payload: Buffer.from(packet.payload) });
  });
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  return { socket, port: socket.address().port, packets };
}

const until = async (what: string, done: () => boolean, timeoutMs = 5_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('the media thread', () => {
  let peer: Awaited<ReturnType<typeof udpPeer>>;
  let session: RtpSession | undefined;
  const heard = { first: 0, frames: [] as Buffer[], digits: [] as string[], drained: 0 };
  const listener = {
    onFirstPacket: () => void heard.first++,
    onAudioFrame: (f: Buffer) => void heard.frames.push(f),
    onDigit: (d: string) => void heard.digits.push(d),
    onPlaybackDrained: () => void heard.drained++,
  };

  beforeEach(async () => {
    Object.assign(heard, { first: 0, frames: [], digits: [], drained: 0 });
    peer = await udpPeer();
    session = await openThreadedRtpSession('127.0.0.1', listener);
    session.start({ address: '127.0.0.1', port: peer.port });
    session.outbound.openPlayback();
  });
  afterEach(() => {
    session?.close();
    peer.socket.close();
  });

  it('sends queued frames in order, one per 20 ms of RTP time, then reports the playback drained once', async () => {
    const s = session as RtpSession;
    s.outbound.enqueue(Buffer.concat(Array.from({ length: 20 }, (_, i) => frame(i + 1))));
    expect(s.outbound.queuedFrames).toBe(20);
    await until('playback drained', () => heard.drained === 1);
    expect(s.outbound.queuedFrames).toBe(0);
    await until('the last frame', () => peer.packets.some((p) => p.payload.equals(frame(20))));

    const audio = peer.packets.filter((p) => !isSilence(p.payload));
    expect(audio.map((p) => p.payload)).toEqual(Array.from({ length: 20 }, (_, i) => frame(i + 1)));
    // Consecutive packets: sequence + 1 and timestamp + 160 samples (20 ms at 8 kHz), whatever the wall clock did.
    for (let i = 1; i < peer.packets.length; i++) {
      expect(peer.packets[i].sequence).toBe((peer.packets[i - 1].sequence + 1) & 0xffff);
      expect(peer.packets[i].timestamp).toBe((peer.packets[i - 1].timestamp + FRAME_BYTES) >>> 0);
    }
    // The counters are live while the thread sends: stop it, and compare them once they no longer move.
    s.close();
    let last = -1;
    for (let sent = s.stats.framesSent; sent !== last; sent = s.stats.framesSent) {
      last = sent;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(s.stats.framesSent).toBeGreaterThanOrEqual(peer.packets.length);
    const lateness = Object.values(s.stats.latenessMs).reduce((a, b) => a + b, 0);
    expect(lateness).toBe(s.stats.framesSent);
    expect(heard.drained).toBe(1);
  });

  it('clearPlayback drops exactly the frames not yet sent, and only silence follows', async () => {
    const s = session as RtpSession;
    s.outbound.enqueue(Buffer.concat(Array.from({ length: 150 }, (_, i) => frame(i + 1))));
    await until('some audio', () => peer.packets.filter((p) => !isSilence(p.payload)).length >= 5);
    const dropped = s.outbound.clear();
    expect(dropped).toBeGreaterThan(0);
    expect(s.outbound.queuedFrames).toBe(0);
    const sentBefore = s.stats.framesSent;
    await until('ten more ticks', () => s.stats.framesSent >= sentBefore + 10);
    await until('their packets', () => peer.packets.length >= s.stats.framesSent - 1);

    const audio = peer.packets.filter((p) => !isSilence(p.payload));
    expect(audio.length).toBe(150 - dropped);
    expect(audio.map((p) => p.payload)).toEqual(Array.from({ length: 150 - dropped }, (_, i) => frame(i + 1)));
    expect(isSilence(peer.packets[peer.packets.length - 1].payload)).toBe(true);
    expect(heard.drained).toBe(0);

    // Audio queued after a barge-in plays normally.
    s.outbound.enqueue(frame(99));
    await until('the frame after the barge-in', () => heard.drained === 1);
    expect(peer.packets.filter((p) => p.payload.equals(frame(99)))).toHaveLength(1);
  });

  it("sends RFC 4733 digits, and hands the peer's audio and digits to the main thread in order", async () => {
    const s = session as RtpSession;
    s.outbound.queueDigits('5#');
    expect(() => s.outbound.queueDigits('5x')).toThrow(RangeError);
    await until("both digits' end packets", () => peer.packets.filter((p) => p.payloadType === 101 && decodeTelephoneEvent(p.payload)?.end).length >= 6);
    const events = peer.packets.filter((p) => p.payloadType === 101);
    const starts = events.filter((p) => p.marker).map((p) => decodeTelephoneEvent(p.payload)?.event);
    expect(starts).toEqual([5, 11]);

    const send = (packet: Omit<RtpPacket, 'ssrc'>) => peer.socket.send(buildRtpPacket({ ...packet, ssrc: 0x1234 }), s.localPort, '127.0.0.1');
    for (let i = 0; i < 10; i++) send({ payloadType: 0, marker: i === 0, sequence: i, timestamp: i * FRAME_BYTES, payload: frame(i + 1) });
    const at = 10 * FRAME_BYTES;
    send({ payloadType: 101, marker: true, sequence: 10, timestamp: at, payload: encodeTelephoneEvent({ event: 7, end: false, volume: 10, duration: 160 }) });
    for (let i = 0; i < 3; i++)
      send({
        payloadType: 101,
        marker: false,
        sequence: 11 + i,
        timestamp: at,
        payload: encodeTelephoneEvent({ event: 7, end: true, volume: 10, duration: 800 }),
      });
    send({ payloadType: 0, marker: false, sequence: 3, timestamp: 0, payload: frame(50) }); // late: dropped

    await until('the digit', () => heard.digits.length === 1 && s.stats.packetsDropped === 1);
    expect(heard.first).toBe(1);
    expect(heard.frames).toEqual(Array.from({ length: 10 }, (_, i) => frame(i + 1)));
    expect(heard.digits).toEqual(['7']);
    expect(s.stats.packetsReceived).toBe(14);
  });
});
