import { decodeMulaw } from '@switchboard/telephony';

/** Taps on each side of an interpolated sample: a 32-tap half-band filter, flat to about 3.6 kHz. */
const HALF_TAPS = 16;

/** The weights of the 32 input samples around each new midpoint sample: a Blackman-windowed sinc at 4 kHz. */
const MIDPOINT_WEIGHTS = Float64Array.from({ length: 2 * HALF_TAPS }, (_, i) => {
  const t = i - HALF_TAPS + 0.5; // distance from the midpoint, in input samples
  const sinc = Math.sin(Math.PI * t) / (Math.PI * t);
  const phase = (t + HALF_TAPS) / (2 * HALF_TAPS); // 0..1 across the window
  const blackman = 0.42 - 0.5 * Math.cos(2 * Math.PI * phase) + 0.08 * Math.cos(4 * Math.PI * phase);
  return sinc * blackman;
});

/**
 * 8 kHz μ-law to 16 kHz linear PCM, for pocketsphinx's 16 kHz model (docs/voice-agents.md#speech-input): the input samples
 * stay, and a windowed-sinc filter computes one between each pair, so nothing above the telephone band is made up.
 * In-process, this replaces a sox run per utterance.
 */
export function upsampleMulawTo16k(mulaw: Buffer): Int16Array {
  return upsampleTo16k(decodeMulaw(mulaw));
}

/** 8 kHz linear PCM to 16 kHz with the same filter. */
export function upsampleTo16k(input: Int16Array): Int16Array {
  const out = new Int16Array(input.length * 2);
  for (let k = 0; k < input.length; k++) {
    out[2 * k] = input[k];
    let sum = 0;
    for (let i = 0; i < 2 * HALF_TAPS; i++) {
      const j = k + i - HALF_TAPS + 1;
      if (j >= 0 && j < input.length) sum += input[j] * MIDPOINT_WEIGHTS[i];
    }
    out[2 * k + 1] = Math.max(-32768, Math.min(32767, Math.round(sum)));
  }
  return out;
}
