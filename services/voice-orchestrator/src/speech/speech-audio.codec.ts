import { decodeMulaw, encodeMulaw } from '@switchboard/telephony';
import { encodeWav } from '../recording/stereo-wav';

/** The rate of the phone line: G.711 μ-law carries 8 kHz audio. */
export const LINE_RATE = 8000;
/** OpenAI's `response_format: "pcm"` is raw 16-bit little-endian mono at this rate (docs/voice-agents.md#remote-speech-providers). */
export const OPENAI_PCM_RATE = 24_000;

export interface PcmAudio {
  sampleRate: number;
  /** Mono 16-bit samples. */
  samples: Int16Array;
}

/**
 * Reads a RIFF WAV of 16-bit integer PCM, mixing several channels down to one. Chunks other than `fmt ` and `data`
 * (LIST, fact, …) are skipped, as speech services add them. A data size of 0 or 0xFFFFFFFF, which streaming encoders
 * write when they do not know the length yet, means "to the end of the file".
 */
export function parseWav(file: Buffer): PcmAudio {
  if (file.length < 12 || file.toString('ascii', 0, 4) !== 'RIFF' || file.toString('ascii', 8, 12) !== 'WAVE') throw new RangeError('not a RIFF WAVE file');
  let format: { tag: number; channels: number; sampleRate: number; bits: number } | undefined;
  let offset = 12;
  while (offset + 8 <= file.length) {
    const id = file.toString('ascii', offset, offset + 4);
    const declared = file.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (declared < 16 || body + 16 > file.length) throw new RangeError('WAV fmt chunk is too short');
      format = {
        tag: file.readUInt16LE(body),
        channels: file.readUInt16LE(body + 2),
        sampleRate: file.readUInt32LE(body + 4),
        bits: file.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!format) throw new RangeError('WAV data chunk comes before its fmt chunk');
      // 0xFFFE is WAVE_FORMAT_EXTENSIBLE, whose PCM sub-format is read the same way.
      if ((format.tag !== 1 && format.tag !== 0xfffe) || format.bits !== 16)
        throw new RangeError(`WAV must be 16-bit PCM (format ${format.tag}, ${format.bits} bits)`);
      if (format.channels < 1 || format.sampleRate < 1) throw new RangeError('WAV has no channels or no sample rate');
      const end = declared === 0 || declared === 0xffffffff ? file.length : Math.min(file.length, body + declared);
      return { sampleRate: format.sampleRate, samples: mixToMono(readInt16LE(file.subarray(body, end)), format.channels) };
    }
    offset = body + declared + (declared % 2);
  }
  throw new RangeError('WAV has no data chunk');
}

/** Raw 16-bit little-endian mono samples (an odd trailing byte is dropped). */
export function readInt16LE(bytes: Buffer): Int16Array {
  const samples = new Int16Array(Math.floor(bytes.length / 2));
  for (let i = 0; i < samples.length; i += 1) samples[i] = bytes.readInt16LE(i * 2);
  return samples;
}

function mixToMono(interleaved: Int16Array, channels: number): Int16Array {
  if (channels === 1) return interleaved;
  const mono = new Int16Array(Math.floor(interleaved.length / channels));
  for (let i = 0; i < mono.length; i += 1) {
    let sum = 0;
    for (let c = 0; c < channels; c += 1) sum += interleaved[i * channels + c];
    mono[i] = Math.round(sum / channels);
  }
  return mono;
}

/**
 * Changes the sample rate. Going down, each output sample is the mean of the input samples it stands for (a box
 * filter), which keeps what lies above the new Nyquist frequency from folding back into the speech band; going up,
 * samples are interpolated linearly.
 */
export function resample(samples: Int16Array, fromRate: number, toRate: number): Int16Array {
  if (fromRate === toRate) return samples;
  const ratio = fromRate / toRate;
  const out = new Int16Array(Math.floor(samples.length / ratio));
  for (let i = 0; i < out.length; i += 1) {
    if (ratio > 1) {
      const start = Math.floor(i * ratio);
      const end = Math.min(samples.length, Math.max(start + 1, Math.floor((i + 1) * ratio)));
      let sum = 0;
      for (let j = start; j < end; j += 1) sum += samples[j];
      out[i] = Math.round(sum / (end - start));
    } else {
      const position = i * ratio;
      const left = Math.floor(position);
      const right = Math.min(samples.length - 1, left + 1);
      const weight = position - left;
      out[i] = Math.round(samples[left] * (1 - weight) + samples[right] * weight);
    }
  }
  return out;
}

/** Speech at any rate, as the phone line carries it: 8 kHz G.711 μ-law. */
export function toLineMulaw(audio: PcmAudio): Buffer {
  return encodeMulaw(resample(audio.samples, audio.sampleRate, LINE_RATE));
}

/** The callee's μ-law as an 8 kHz 16-bit mono WAV: the file a transcription API takes. */
export function lineMulawToWav(mulaw: Buffer): Buffer {
  return encodeWav(decodeMulaw(mulaw), 1, LINE_RATE);
}
