import { decodeMulaw, decodeMulawSample, encodeMulaw, encodeMulawSample, MULAW_SILENCE } from '../src/media/g711-mulaw.codec';

describe('G.711 μ-law', () => {
  it('encodes the reference points of the G.711 table', () => {
    expect(encodeMulawSample(0)).toBe(0xff);
    expect(encodeMulawSample(32767)).toBe(0x80);
    expect(encodeMulawSample(-32768)).toBe(0x00);
    expect(encodeMulawSample(-1)).toBe(0x7f);
    expect(MULAW_SILENCE).toBe(0xff);
  });

  it('decodes the extremes and silence', () => {
    expect(decodeMulawSample(0xff)).toBe(0);
    expect(decodeMulawSample(0x7f)).toBe(0);
    expect(decodeMulawSample(0x80)).toBe(32124);
    expect(decodeMulawSample(0x00)).toBe(-32124);
  });

  it('re-encodes every decoded byte to itself except the duplicate zero', () => {
    for (let byte = 0; byte < 256; byte++) {
      const again = encodeMulawSample(decodeMulawSample(byte));
      expect(byte === 0x7f ? 0xff : byte).toBe(again);
    }
  });

  it('keeps a sine wave within the quantisation error of its segment', () => {
    const pcm = Int16Array.from({ length: 160 }, (_, i) => Math.round(12000 * Math.sin((2 * Math.PI * 440 * i) / 8000)));
    const decoded = decodeMulaw(encodeMulaw(pcm));
    pcm.forEach((sample, i) => expect(Math.abs(decoded[i] - sample)).toBeLessThanOrEqual(Math.max(8, Math.abs(sample) / 16)));
  });

  it('is monotonic over the linear range', () => {
    let previous = -Infinity;
    for (let sample = -32768; sample <= 32767; sample += 97) {
      const decoded = decodeMulawSample(encodeMulawSample(sample));
      expect(decoded).toBeGreaterThanOrEqual(previous);
      previous = decoded;
    }
  });
});
