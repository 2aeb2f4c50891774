import { once } from 'node:events';
import { createSipTrunk, FRAME_BYTES, type SipTrunk } from '../src';
import { freeUdpPort } from './support/free-port';
import { startSipp, type SippProcess } from './support/sipp.process';

jest.setTimeout(30_000);

/** 50 frames (1 s) that differ from each other and from silence (0xff). */
const pattern = Array.from({ length: 50 }, (_, i) => Buffer.from(Array.from({ length: FRAME_BYTES }, (_, j) => (i * 31 + j * 7) % 0x7f)));

// Both media paths: the media thread (the default) and the main thread (`mediaThread: false`, which the carrier simulator's path shares).
describe.each([true, false])('RTP against SIPp -rtp_echo (media thread: %s)', (mediaThread) => {
  let sipp: SippProcess | undefined;
  let trunk: SipTrunk | undefined;

  afterEach(async () => {
    await trunk?.close();
    await sipp?.stop();
    trunk = undefined;
    sipp = undefined;
  });

  it('reports media ready on the first echoed packet, and the frames we play come back intact and in order', async () => {
    const mediaPort = await freeUdpPort();
    sipp = await startSipp('answer-echo.xml', await freeUdpPort(), ['-mi', '127.0.0.1', '-mp', String(mediaPort), '-rtp_echo']);
    trunk = await createSipTrunk({ host: '127.0.0.1', port: sipp.port, callerId: '+15550001', bindAddress: '127.0.0.2', localPort: 0, mediaThread });
    const leg = await trunk.originate({ to: '+15550200' });
    const order: string[] = [];
    const received: Buffer[] = [];
    leg.on('answered', () => order.push('answered'));
    leg.on('audio', (frame) => received.push(frame));
    leg.play(Buffer.concat(pattern)); // queued before the answer: must wait for media-ready
    await once(leg as never, 'media-ready');
    order.push('media-ready');
    expect(order).toEqual(['answered', 'media-ready']);

    await once(leg as never, 'playback-drained');
    const deadline = Date.now() + 5_000;
    const start = () => received.findIndex((frame) => frame.equals(pattern[0]));
    while ((start() < 0 || received.length < start() + pattern.length) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));

    const first = start();
    expect(first).toBeGreaterThanOrEqual(0);
    expect(received.slice(first, first + pattern.length)).toEqual(pattern);
    // Before media-ready we sent silence, and that is what came back first.
    expect(received.slice(0, first).every((frame) => frame.every((b) => b === 0xff))).toBe(true);
    expect(leg.mediaStats.framesSent).toBeGreaterThanOrEqual(pattern.length);

    await expect(leg.hangup()).resolves.toEqual({ outcome: 'completed', endReason: 'hangup_api' });
    expect(await sipp.exited).toBe(0);
  });

  it('clearPlayback drops what is still queued (barge-in)', async () => {
    sipp = await startSipp('answer-echo.xml', await freeUdpPort(), ['-mi', '127.0.0.1', '-mp', String(await freeUdpPort()), '-rtp_echo']);
    trunk = await createSipTrunk({ host: '127.0.0.1', port: sipp.port, callerId: '+15550001', bindAddress: '127.0.0.2', localPort: 0, mediaThread });
    const leg = await trunk.originate({ to: '+15550201' });
    await once(leg as never, 'media-ready');
    const received: Buffer[] = [];
    leg.on('audio', (frame) => received.push(frame));
    leg.play(Buffer.concat([...pattern, ...pattern, ...pattern])); // 3 s
    await new Promise((r) => setTimeout(r, 200));
    const dropped = leg.clearPlayback();
    expect(dropped).toBeGreaterThan(0);
    expect(leg.queuedFrames).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    // Exactly the frames that had left the queue come back; the dropped ones never go out, silence follows.
    const played = received.filter((frame) => !frame.every((b) => b === 0xff)).length;
    expect(played).toBe(3 * pattern.length - dropped);
    expect(received[received.length - 1].every((b) => b === 0xff)).toBe(true);
    await leg.hangup();
  });
});
