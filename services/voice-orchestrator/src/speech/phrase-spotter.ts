import { join } from 'node:path';
import { addHighBandFloor } from './high-band-floor';
import { loadDictionary, runPocketsphinx, vocabulary, type SpeechRecognizer } from './pocketsphinx-stt';
import { upsampleMulawTo16k } from './upsample';

/**
 * The detection threshold of a key phrase is 10^-(this × its phones). pocketsphinx compares the phrase's path with
 * a free phone loop over the same audio; a longer phrase accumulates a larger difference, so the threshold has to
 * scale with its length. 2 gave the best routing on the evaluation set (1.5 and 2.5 routed fewer; 3 and more let
 * out-of-grammar phrases through: docs/voice-recognition.md#keyword-spotting).
 */
const THRESHOLD_EXPONENT_PER_PHONE = 2;

/**
 * A transform of the en-us model's means fitted to telephone-band audio (MLLR, made by
 * `scripts/telephone-band-mllr.mjs`): the model was trained on 16 kHz speech and the line carries 300 to 3,400 Hz.
 * On voices it was not fitted on, it raised the evaluation set's routing from 58 to 63 % clean and 43 to 45 % with
 * noise (docs/voice-recognition.md#the-telephone-band). Relative to `src/speech` and `dist/speech` alike.
 */
export const TELEPHONE_BAND_MLLR = join(__dirname, '../../speech-models/en-us-telephone.mllr');

/** The phones of a phrase, by the first pronunciation of each of its words; null when a word is not in the dictionary. */
function phoneCount(phrase: string, known: Map<string, string[]>): number | null {
  let phones = 0;
  for (const word of phrase
    .toLowerCase()
    .split(/[^a-z']+/)
    .filter(Boolean)) {
    const lines = known.get(word);
    if (!lines) return null;
    phones += lines[0].split(/\s+/).length - 1;
  }
  return phones > 0 ? phones : null;
}

/** pocketsphinx's key-phrase list: one phrase a line with its threshold, `phrase /1e-12/`. */
export function keyphraseList(phrases: string[], known: Map<string, string[]>): string {
  const lines = new Set<string>();
  for (const phrase of phrases) {
    const phones = phoneCount(phrase, known);
    const words = phrase
      .toLowerCase()
      .split(/[^a-z']+/)
      .filter(Boolean)
      .join(' ');
    if (phones !== null) lines.add(`${words} /1e-${THRESHOLD_EXPONENT_PER_PHONE * phones}/`);
  }
  return lines.size > 0 ? `${[...lines].join('\n')}\n` : '';
}

/**
 * Keyword spotting with Debian's pocketsphinx and its en-us model (docs/voice-recognition.md): each expected phrase
 * is a key phrase, detected anywhere in the utterance when its score beats a free phone loop by its threshold.
 * Speech that holds none of the phrases yields nothing, which the gather takes as `no_match`. The answer is the
 * phrases detected, in the order they were said.
 */
export function createPhraseSpotter(): SpeechRecognizer {
  const dictionary = loadDictionary();
  return {
    async recognize(mulaw, phrases) {
      const known = vocabulary(phrases, await dictionary);
      const keyphrases = keyphraseList(phrases, known);
      if (keyphrases === '' || mulaw.length === 0) return '';
      const stdout = await runPocketsphinx(addHighBandFloor(upsampleMulawTo16k(mulaw)), known, { kws: keyphrases }, TELEPHONE_BAND_MLLR);
      return stdout
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean)
        .join(' ');
    },
  };
}
