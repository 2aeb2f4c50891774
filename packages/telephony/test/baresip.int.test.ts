import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSipTrunk, encodeMulaw, FRAME_BYTES, type CallLeg, type SipTrunk } from '../src';
import { startBaresip, type BaresipProcess } from './support/baresip.process';
import { makeSpeech, type SpeechFixture } from './support/speech.fixture';
import { readWav } from './support/wav.reader';

jest.setTimeout(60_000);

/** Index where `needle` starts inside `haystack`, or -1. */
function indexOfRun<T extends ArrayLike<number>>(haystack: T, needle: T): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

const isSilence = (frame: Buffer) => frame.every((b) => b === 0xff);

// A real SIP user agent: baresip auto-answers on 127.0.0.1, plays a flite phrase from a WAV, records what it
// receives (sndfile) and is driven over ctrl_tcp. Our trunk binds 127.0.0.2.
describe('SIP trunk against baresip', () => {
  let dir: string;
  let calleeSpeech: SpeechFixture;
  let agentSpeech: SpeechFixture;
  let baresip: BaresipProcess | undefined;
  let trunk: SipTrunk | undefined;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sb-voice-'));
    calleeSpeech = makeSpeech(dir, 'callee', 'Hello, this is the callee speaking.', 60);
    agentSpeech = makeSpeech(dir, 'agent', 'Thank you for calling. Press one for sales.', 0);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  beforeEach(async () => {
    baresip = await startBaresip({
      sourceWav: calleeSpeech.paddedWavPath,
    });
    trunk = await createSipTrunk({ host: '127.0.0.1', port: baresip.sipPort, callerId: '+15550001', bindAddress: '127.0.0.2', localPort: 0 });
  });

  afterEach(async () => {
    await trunk?.close();
    await baresip?.stop();
    trunk = undefined;
    baresip = undefined;
  });

  const answeredLeg = async (): Promise<{ leg: CallLeg; events: string[]; frames: Buffer[] }> => {
    const leg = await trunk!.originate({ to: 'callee' });
    const events: string[] = [];
    const frames: Buffer[] = [];
    for (const name of ['ringing', 'answered', 'media-ready'] as const) leg.on(name, () => events.push(name));
    leg.on('audio', (frame) => frames.push(frame));
    await once(leg as never, 'media-ready');
    return { leg, events, frames };
  };

  it('is answered, hears baresip speak its WAV, and baresip records exactly what we played; our hangup sends BYE', async () => {
    const { leg, events, frames } = await answeredLeg();
    expect(events).toEqual(['ringing', 'answered', 'media-ready']);
    // A second of silence after the phrase pushes its end through baresip's jitter buffer before we hang up.
    leg.play(Buffer.concat([agentSpeech.mulaw, Buffer.alloc(8000, 0xff)]));
    await once(leg as never, 'playback-drained');

    // baresip encodes its WAV to μ-law: the speech frames we received are that encoding, byte for byte.
    const calleeMulaw = encodeMulaw(readWav(calleeSpeech.paddedWavPath).samples);
    const firstSpoken = frames.findIndex((frame) => !isSilence(frame));
    expect(firstSpoken).toBeGreaterThanOrEqual(0);
    const spoken = Buffer.concat(frames.slice(firstSpoken, firstSpoken + 25));
    expect(indexOfRun(calleeMulaw, spoken)).toBeGreaterThanOrEqual(0);

    await expect(leg.hangup()).resolves.toEqual({ outcome: 'completed', endReason: 'hangup_api' });
    await baresip!.event('CALL_CLOSED');

    // What baresip received is what we played. Compared as μ-law (what travelled): libre decodes 0xff to 2, not 0.
    const recording = readdirSync(baresip!.recordingsDir).find((name) => name.endsWith('-dec.wav'));
    expect(recording).toBeDefined();
    const received = encodeMulaw(readWav(join(baresip!.recordingsDir, recording!)).samples);
    const played = agentSpeech.mulaw;
    const firstSound = played.findIndex((byte) => byte !== 0xff);
    const wholeFrames = played.subarray(firstSound, played.length - ((played.length - firstSound) % FRAME_BYTES));
    expect(wholeFrames.length).toBeGreaterThan(50 * FRAME_BYTES);
    expect(indexOfRun(received, wholeFrames)).toBeGreaterThanOrEqual(0);
  });

  it('turns DTMF that baresip sends over ctrl_tcp (RFC 4733) into digits on our leg', async () => {
    const { leg } = await answeredLeg();
    const digits: string[] = [];
    leg.on('dtmf', (digit) => digits.push(digit));
    await expect(baresip!.command('sndcode', '5')).resolves.toMatchObject({ ok: true });
    while (digits.length < 1) await new Promise((r) => setTimeout(r, 20));
    await expect(baresip!.command('sndcode', '#')).resolves.toMatchObject({ ok: true });
    while (digits.length < 2) await new Promise((r) => setTimeout(r, 20));
    expect(digits).toEqual(['5', '#']);
    await leg.hangup();
  });

  it('sends DTMF that baresip receives as an RFC 4733 digit', async () => {
    const { leg } = await answeredLeg();
    leg.sendDtmf('7');
    await expect(baresip!.event('CALL_DTMF_START')).resolves.toMatchObject({ param: '7' });
    await leg.hangup();
  });

  it('ends completed / callee_hangup when baresip hangs up', async () => {
    const { leg } = await answeredLeg();
    await expect(baresip!.command('hangup')).resolves.toMatchObject({ ok: true });
    await expect(leg.ended).resolves.toEqual({ outcome: 'completed', endReason: 'callee_hangup' });
  });
});
