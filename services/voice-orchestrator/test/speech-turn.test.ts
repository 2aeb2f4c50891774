import { decodeMulaw, encodeMulaw } from '@switchboard/telephony';
import { createUtteranceDetector, END_OF_SPEECH_MS } from '../src/agent/speech-capture';
import { trimLeadingSilence } from '../src/speech/leading-silence';
import { upsampleMulawTo16k } from '../src/speech/upsample';

const QUIET = Buffer.alloc(160, 0xff); // μ-law zero
const LOUD = Buffer.alloc(160, 0x00); // μ-law full scale

function detector(maxFrames = 1000) {
  const seen = { speechStarts: 0, pauses: [] as number[], utterance: undefined as { frames: number; endedBySilence: boolean } | undefined };
  const feed = createUtteranceDetector({
    maxFrames,
    onSpeechStart: () => seen.speechStarts++,
    onPause: (audio) => seen.pauses.push(audio.length / 160),
    onUtterance: (audio, endedBySilence) => (seen.utterance = { frames: audio.length / 160, endedBySilence }),
  });
  const play = (frame: Buffer, count: number) => {
    for (let i = 0; i < count; i++) feed(frame);
  };
  return { seen, play };
}

describe('speech turn: utterance detector', () => {
  it('ends an utterance after 400 ms of silence, having offered the audio to the recogniser at the 160 ms pause', () => {
    const { seen, play } = detector();
    expect(END_OF_SPEECH_MS).toBe(400);
    play(QUIET, 10);
    play(LOUD, 30); // speech starts at its 5th frame
    expect(seen.speechStarts).toBe(1);
    play(QUIET, 7);
    expect(seen.pauses).toEqual([]);
    play(QUIET, 1); // 160 ms quiet: the audio so far (lead-in, speech, the pause) goes to the recogniser
    expect(seen.pauses).toEqual([10 + 30 + 8]);
    play(QUIET, 11);
    expect(seen.utterance).toBeUndefined();
    play(QUIET, 1); // 400 ms quiet
    expect(seen.utterance).toEqual({ frames: 10 + 30 + 20, endedBySilence: true });
  });

  it('keeps listening through a pause shorter than the rule and offers the audio again at the next pause', () => {
    const { seen, play } = detector();
    play(LOUD, 10);
    play(QUIET, 15); // a 300 ms pause inside the sentence
    play(LOUD, 10);
    play(QUIET, 20);
    expect(seen.pauses).toEqual([10 + 8, 10 + 15 + 10 + 8]);
    expect(seen.utterance).toEqual({ frames: 10 + 15 + 10 + 20, endedBySilence: true });
  });

  it('says when the utterance was cut at its longest rather than ended by silence', () => {
    const { seen, play } = detector(50);
    play(LOUD, 60);
    expect(seen.utterance).toEqual({ frames: 50, endedBySilence: false });
  });
});

describe('speech turn: audio helpers', () => {
  it('upsamples 8 kHz μ-law to 16 kHz keeping every input sample and interpolating a 1 kHz tone between them', () => {
    const tone = Int16Array.from({ length: 800 }, (_, n) => Math.round(8000 * Math.sin((2 * Math.PI * 1000 * n) / 8000)));
    const mulaw = encodeMulaw(tone);
    const out = upsampleMulawTo16k(mulaw);
    const input = decodeMulaw(mulaw);
    expect(out).toHaveLength(1600);
    for (let n = 0; n < input.length; n++) expect(out[2 * n]).toBe(input[n]);
    // Away from the edges, each new sample lies on the 16 kHz tone (within μ-law's quantisation error).
    for (let n = 40; n < 760; n++) expect(Math.abs(out[2 * n + 1] - 8000 * Math.sin((2 * Math.PI * 1000 * (n + 0.5)) / 8000))).toBeLessThan(400);
  });

  it("drops a synthesiser's lead-in silence, keeping 20 ms before the first loud sample", () => {
    const audio = Buffer.concat([Buffer.alloc(1760, 0xff), LOUD, QUIET]);
    expect(trimLeadingSilence(audio)).toEqual(Buffer.concat([Buffer.alloc(160, 0xff), LOUD, QUIET]));
    expect(trimLeadingSilence(QUIET)).toEqual(QUIET);
  });
});
