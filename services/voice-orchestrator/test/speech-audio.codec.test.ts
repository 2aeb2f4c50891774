import { decodeMulaw, encodeMulaw } from '@switchboard/telephony';
import { encodeWav } from '../src/recording/stereo-wav';
import { lineMulawToWav, parseWav, resample, toLineMulaw } from '../src/speech/speech-audio.codec';

const tone = (hz: number, rate: number, seconds: number, amplitude = 10_000) =>
  Int16Array.from({ length: Math.round(rate * seconds) }, (_, i) => Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate)));
const peak = (samples: Int16Array) => samples.reduce((max, s) => Math.max(max, Math.abs(s)), 0);

/** A WAV with a LIST chunk between fmt and data, as speech services write it. */
function wavWithListChunk(samples: Int16Array, channels: number, rate: number): Buffer {
  const plain = encodeWav(samples, channels, rate);
  const list = Buffer.alloc(8 + 5 + 1); // odd body: padded to even
  list.write('LIST', 0, 'ascii');
  list.writeUInt32LE(5, 4);
  list.write('INFOx', 8, 'ascii');
  return Buffer.concat([plain.subarray(0, 36), list, plain.subarray(36)]);
}

describe('speech audio codec', () => {
  it('reads a WAV past chunks it does not know, and mixes stereo down to mono', () => {
    const stereo = Int16Array.from([100, 300, -200, -400, 1000, 1000]);
    const audio = parseWav(wavWithListChunk(stereo, 2, 16_000));
    expect(audio.sampleRate).toBe(16_000);
    expect(Array.from(audio.samples)).toEqual([200, -300, 1000]);
  });

  it('reads a streamed WAV whose data size is unknown (0xFFFFFFFF) to the end of the file', () => {
    const file = encodeWav(Int16Array.from([1, 2, 3]), 1, 24_000);
    file.writeUInt32LE(0xffffffff, 40);
    expect(Array.from(parseWav(file).samples)).toEqual([1, 2, 3]);
  });

  it('refuses what is not 16-bit PCM WAV, saying why', () => {
    expect(() => parseWav(Buffer.from('ID3\u0003 not a wav at all'))).toThrow('not a RIFF WAVE file');
    const eightBit = encodeWav(Int16Array.from([1, 2]), 1, 8000);
    eightBit.writeUInt16LE(8, 34);
    expect(() => parseWav(eightBit)).toThrow('16-bit PCM');
    expect(() => parseWav(encodeWav(new Int16Array(0), 1, 8000).subarray(0, 36))).toThrow('no data chunk');
  });

  it("turns OpenAI's 24 kHz PCM into 8 kHz keeping speech-band tones and damping what would fold back", () => {
    const speechBand = resample(tone(1_000, 24_000, 0.5), 24_000, 8_000);
    expect(speechBand.length).toBe(4_000);
    expect(peak(speechBand)).toBeGreaterThan(8_000);
    // 10 kHz cannot exist at 8 kHz; unfiltered decimation would fold it to 2 kHz at full strength.
    expect(peak(resample(tone(10_000, 24_000, 0.5), 24_000, 8_000))).toBeLessThan(3_000);
  });

  it('resamples flite-rate (16 kHz) and odd rates, and upsamples by interpolation', () => {
    expect(toLineMulaw({ sampleRate: 16_000, samples: tone(500, 16_000, 1) }).length).toBe(8_000);
    expect(toLineMulaw({ sampleRate: 22_050, samples: tone(500, 22_050, 1) }).length).toBe(8_000);
    expect(Array.from(resample(Int16Array.from([0, 100, 200]), 8_000, 16_000))).toEqual([0, 50, 100, 150, 200, 200]);
  });

  it('wraps the callee μ-law in an 8 kHz mono WAV that reads back to the same samples', () => {
    const mulaw = encodeMulaw(tone(700, 8_000, 0.1));
    const wav = lineMulawToWav(mulaw);
    const back = parseWav(wav);
    expect(back.sampleRate).toBe(8_000);
    expect(Array.from(back.samples)).toEqual(Array.from(decodeMulaw(mulaw)));
  });
});
