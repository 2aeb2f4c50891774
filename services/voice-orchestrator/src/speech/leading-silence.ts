import { decodeMulawSample } from '@switchboard/telephony';

/** A sample louder than this (of 32767) is the start of speech; a synthesiser's lead-in stays far below it. */
const SPEECH_SAMPLE_LEVEL = 500;
/** Lead-in kept before the first loud sample (20 ms): the word's soft onset. */
const KEEP_SAMPLES = 160;

/**
 * μ-law audio without the silence a synthesiser puts before the first word: flite starts every utterance with about
 * 220 ms of it, dead air that the callee would hear as part of every turn (docs/performance/voice.md#speech-turn).
 */
export function trimLeadingSilence(mulaw: Buffer): Buffer {
  let first = 0;
  while (first < mulaw.length && Math.abs(decodeMulawSample(mulaw[first])) <= SPEECH_SAMPLE_LEVEL) first += 1;
  if (first === mulaw.length) return mulaw;
  return mulaw.subarray(Math.max(0, first - KEEP_SAMPLES));
}
