import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { encodeWav } from '../recording/stereo-wav';
import { upsampleMulawTo16k } from './upsample';

const run = promisify(execFile);
const MODEL = '/usr/share/pocketsphinx/model/en-us';

/** Recognises callee speech among expected phrases (docs/voice.md#speech-input). */
export interface SpeechRecognizer {
  /** The words heard, from the vocabulary of `phrases`; empty when nothing was recognised. */
  recognize(mulaw: Buffer, phrases: string[]): Promise<string>;
}

/** The words of the phrases that the pronunciation dictionary knows: a JSGF grammar may only use those. */
function vocabulary(phrases: string[], dictionary: Map<string, string[]>): string[] {
  const words = new Set(phrases.flatMap((p) => p.toLowerCase().split(/[^a-z']+/)).filter((w) => w && dictionary.has(w)));
  return [...words].sort();
}

/** The dictionary's lines for `words` (each word with its alternative pronunciations, `word(2)`…). */
function dictionaryLines(words: string[], dictionary: Map<string, string[]>): string {
  return `${words.flatMap((w) => dictionary.get(w) ?? []).join('\n')}\n`;
}

/**
 * Debian's pocketsphinx with its en-us model. It is usable only on audio upsampled to 16 kHz and with a grammar:
 * the grammar here accepts any sequence of the expected phrases' words, which keeps a phrase recognisable when the
 * callee says it inside a longer sentence.
 */
export function createPocketsphinxRecognizer(): SpeechRecognizer {
  // Word → its lines in the full dictionary. pocketsphinx gets only the grammar's words: loading all 130,000
  // entries took it about a second per utterance, most of its time (docs/performance.md#speech-turn). Read and
  // parsed once when the recogniser is made, at start-up: parsing it during a call stalled every leg's media.
  const dictionary = readFile(join(MODEL, 'cmudict-en-us.dict'), 'utf8').then((text) => {
    const byWord = new Map<string, string[]>();
    for (const line of text.split('\n')) {
      const word = line.split(' ')[0].replace(/\(\d+\)$/, '');
      if (!word) continue;
      const lines = byWord.get(word);
      if (lines) lines.push(line);
      else byWord.set(word, [line]);
    }
    return byWord;
  });
  dictionary.catch(() => undefined); // a missing model surfaces on the first recognition
  return {
    async recognize(mulaw, phrases) {
      const known = await dictionary;
      const words = vocabulary(phrases, known);
      if (words.length === 0 || mulaw.length === 0) return '';
      const dir = await mkdtemp(join(tmpdir(), 'sb-stt-'));
      try {
        await writeFile(join(dir, 'speech.wav'), encodeWav(upsampleMulawTo16k(mulaw), 1, 16_000));
        await writeFile(join(dir, 'words.dict'), dictionaryLines(words, known));
        await writeFile(join(dir, 'choices.gram'), `#JSGF V1.0;\ngrammar choices;\npublic <utterance> = <word>+;\n<word> = ${words.join(' | ')};\n`);
        const { stdout } = await run('pocketsphinx_continuous', [
          '-infile', join(dir, 'speech.wav'),
          '-jsgf', join(dir, 'choices.gram'),
          '-hmm', join(MODEL, 'en-us'),
          '-dict', join(dir, 'words.dict'),
          '-logfn', '/dev/null',
        ]);
        return stdout.trim().split(/\s+/).filter(Boolean).join(' ');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/** The branch whose phrase has the most of its words in what was heard; all its words must be there. */
export function matchPhrase(heard: string, phrases: string[]): number {
  const said = new Set(heard.toLowerCase().split(/\s+/));
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
