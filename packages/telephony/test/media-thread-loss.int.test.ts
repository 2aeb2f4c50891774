import { once } from 'node:events';
import { createSipTrunk, FRAME_BYTES, onMediaThreadLost, type MediaThreadLoss, type SipTrunk } from '../src';
import { terminateMediaThreadForTests } from '../src/media/media-thread.client';
import { freeUdpPort } from './support/free-port';
import { startSipp, type SippProcess } from './support/sipp.process';

// The media thread dying mid-call (docs/voice-telephony.md#media-thread): the legs it held end at once, hung up as calls cut by
// their orchestrator are, the loss is reported, and the next call gets a new thread. Under ts-jest the thread runs
// the build in dist/, so build first (npx tsc -b tsconfig.build.json).
jest.setTimeout(30_000);

const tone = Buffer.alloc(FRAME_BYTES * 250, 0x2a); // 5 s, not silence

describe('when the media thread dies', () => {
  const sipps: SippProcess[] = [];
  let trunk: SipTrunk | undefined;
  const losses: MediaThreadLoss[] = [];
  const stopWatching = onMediaThreadLost((loss) => losses.push(loss));

  const sipp = async (scenario: string, extra: string[] = []) => {
    const started = await startSipp(scenario, await freeUdpPort(), extra);
    sipps.push(started);
    return started;
  };
  const echo = async () => sipp('answer-echo.xml', ['-mi', '127.0.0.1', '-mp', String(await freeUdpPort()), '-rtp_echo']);

  beforeEach(() => void losses.splice(0));
  afterEach(async () => {
    await trunk?.close();
    trunk = undefined;
    await Promise.all(sipps.splice(0).map((s) => s.stop()));
  });
  afterAll(() => stopWatching());

  it('ends an answered call with BYE and orchestrator_lost, reports the loss once, and the next call has media', async () => {
    const first = await echo();
    trunk = await createSipTrunk({ host: '127.0.0.1', port: first.port, callerId: '+15550001', bindAddress: '127.0.0.2', localPort: 0, mediaThread: true });
    const leg = await trunk.originate({ to: '+15550300' });
    await once(leg as never, 'media-ready');
    leg.play(tone);
    const ended = jest.fn();
    leg.on('ended', ended);

    await terminateMediaThreadForTests();
    await expect(leg.ended).resolves.toEqual({ outcome: 'completed', endReason: 'orchestrator_lost' });
    expect(ended).toHaveBeenCalledTimes(1);
    expect(losses).toEqual([{ reason: expect.stringMatching(/media thread exited/), legs: 1 }]);
    expect(await first.exited).toBe(0); // SIPp got our BYE and answered it
    // A leg whose media is gone takes no more audio and reports nothing queued.
    leg.play(tone);
    expect(leg.queuedFrames).toBeLessThanOrEqual(250);

    const second = await echo();
    await trunk.close();
    trunk = await createSipTrunk({ host: '127.0.0.1', port: second.port, callerId: '+15550001', bindAddress: '127.0.0.2', localPort: 0, mediaThread: true });
    const next = await trunk.originate({ to: '+15550301' });
    const heard: Buffer[] = [];
    next.on('audio', (frame) => heard.push(frame));
    await once(next as never, 'media-ready');
    next.play(tone.subarray(0, FRAME_BYTES * 10));
    await once(next as never, 'playback-drained');
    const deadline = Date.now() + 5_000;
    while (heard.filter((f) => f[0] === 0x2a).length < 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(heard.filter((f) => f[0] === 0x2a)).toHaveLength(10);
    await expect(next.hangup()).resolves.toEqual({ outcome: 'completed', endReason: 'hangup_api' });
    expect(losses).toHaveLength(1);
  });

  it('cancels a ringing call with orchestrator_lost', async () => {
    const ringing = await sipp('ring-forever.xml');
    trunk = await createSipTrunk({ host: '127.0.0.1', port: ringing.port, callerId: '+15550001', bindAddress: '127.0.0.2', localPort: 0, mediaThread: true });
    const leg = await trunk.originate({ to: '+15550302' });
    await once(leg as never, 'ringing');

    await terminateMediaThreadForTests();
    await expect(leg.ended).resolves.toEqual({ outcome: 'canceled', endReason: 'orchestrator_lost', sipStatus: 487 });
    expect(losses).toEqual([{ reason: expect.stringMatching(/media thread exited/), legs: 1 }]);
  });
});
