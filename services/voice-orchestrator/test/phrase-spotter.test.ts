import { readFileSync } from 'node:fs';
import { addHighBandFloor } from '../src/speech/high-band-floor';
import { keyphraseList, TELEPHONE_BAND_MLLR } from '../src/speech/phrase-spotter';

describe('phrase spotter', () => {
  const known = new Map([
    ['sales', ['sales S EY L Z']],
    ['technical', ['technical T EH K N IH K AH L']],
    ['problem', ['problem P R AA B L AH M']],
  ]);

  it('gives each phrase a threshold that grows with its phones, and leaves out phrases with unknown words', () => {
    expect(keyphraseList(['Sales', 'technical problem', 'sales', 'flux capacitor'], known)).toBe('sales /1e-8/\ntechnical problem /1e-30/\n');
    expect(keyphraseList(['flux'], known)).toBe('');
  });

  it('puts a repeatable floor above 4 kHz and keeps the speech band', () => {
    const tone = Int16Array.from({ length: 1_600 }, (_, i) => Math.round(8_000 * Math.sin((2 * Math.PI * 1_000 * i) / 16_000)));
    const floored = addHighBandFloor(tone);
    expect(addHighBandFloor(tone)).toEqual(floored);
    const added = floored.map((s, i) => s - tone[i]);
    const rms = Math.sqrt(added.reduce((sum, s) => sum + s * s, 0) / added.length);
    expect(rms).toBeGreaterThan(60);
    expect(rms).toBeLessThan(260);
    // The added power lies above 4 kHz: a DFT of it puts under a tenth of its power below 3.4 kHz.
    const power = (fromHz: number, toHz: number): number => {
      let sum = 0;
      for (let bin = Math.ceil((fromHz * added.length) / 16_000); bin < (toHz * added.length) / 16_000; bin++) {
        let re = 0;
        let im = 0;
        added.forEach((s, n) => {
          re += s * Math.cos((2 * Math.PI * bin * n) / added.length);
          im -= s * Math.sin((2 * Math.PI * bin * n) / added.length);
        });
        sum += re * re + im * im;
      }
      return sum;
    };
    expect(power(0, 3_400)).toBeLessThan(power(0, 8_000) / 10);
  });

  it("ships the telephone-band transform as one class over the en-us model's three 13-dimensional streams", () => {
    // pocketsphinx's -mllr file: classes, streams, then per stream its length, the matrix, the offset and the variance scale.
    const numbers = readFileSync(TELEPHONE_BAND_MLLR, 'utf8').trim().split(/\s+/).map(Number);
    expect(numbers.slice(0, 3)).toEqual([1, 3, 13]);
    expect(numbers).toHaveLength(2 + 3 * (1 + 13 * 13 + 13 + 13));
    expect(numbers.every(Number.isFinite)).toBe(true);
  });
});
