import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const MODEL = '/usr/share/pocketsphinx/model/en-us';

/** Recognises callee speech among expected phrases (docs/voice.md#speech-input). */
export interface SpeechRecognizer {
  /** The words heard, from the vocabulary of `phrases`; empty when nothing was recognised. */
  recognize(mulaw: Buffer, phrases: string[]): Promise<string>;
}

/** The words of the phrases that the pronunciation dictionary knows: a JSGF grammar may only use those. */
function vocabulary(phrases: string[], dictionary: Set<string>): string[] {
  const words = new Set(phrases.flatMap((p) => p.toLowerCase().split(/[^a-z']+/)).filter((w) => w && dictionary.has(w)));
  return [...words].sort();
}

/**
 * Debian's pocketsphinx with its en-us model. It is usable only on audio upsampled to 16 kHz and with a grammar:
 * the grammar here accepts any sequence of the expected phrases' words, which keeps a phrase recognisable when the
 * callee says it inside a longer sentence.
 */
export function createPocketsphinxRecognizer(): SpeechRecognizer {
  let dictionary: Set<string> | undefined;
  const loadDictionary = () =>
    (dictionary ??= new Set(
      readFileSync(join(MODEL, 'cmudict-en-us.dict'), 'utf8')
        .split('\n')
        .map((line) => line.split(' ')[0])
        .filter((w) => w && !w.includes('(')),
    ));
  return {
    async recognize(mulaw, phrases) {
      const words = vocabulary(phrases, loadDictionary());
      if (words.length === 0 || mulaw.length === 0) return '';
      const dir = await mkdtemp(join(tmpdir(), 'sb-stt-'));
      try {
        await writeFile(join(dir, 'speech.ul'), mulaw);
        await writeFile(join(dir, 'choices.gram'), `#JSGF V1.0;\ngrammar choices;\npublic <utterance> = <word>+;\n<word> = ${words.join(' | ')};\n`);
        await run('sox', ['-t', 'raw', '-r', '8000', '-e', 'mu-law', '-c', '1', join(dir, 'speech.ul'), '-r', '16000', '-b', '16', '-e', 'signed-integer', join(dir, 'speech.wav')]);
        const { stdout } = await run('pocketsphinx_continuous', [
          '-infile', join(dir, 'speech.wav'),
          '-jsgf', join(dir, 'choices.gram'),
          '-hmm', join(MODEL, 'en-us'),
          '-dict', join(MODEL, 'cmudict-en-us.dict'),
          '-logfn', '/dev/null',
        ]);
        return stdout.trim().split(/\s+/).filter(Boolean).join(' ');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * The branch whose phrase has the most of its words in what was heard; all its words must be there. Punctuation and
 * case are ignored, as a remote recognizer writes "I want to speak to sales." (docs/voice.md#speech-input).
 */
export function matchPhrase(heard: string, phrases: string[]): number {
  const said = new Set(heard.toLowerCase().split(/[^a-z']+/));
  let best = -1;
  let bestWords = 0;
  phrases.forEach((phrase, i) => {
    const words = phrase.toLowerCase().split(/[^a-z']+/).filter(Boolean);
    if (words.length > bestWords && words.every((w) => said.has(w))) {
      best = i;
      bestWords = words.length;
    }
  });
  return best;
}
