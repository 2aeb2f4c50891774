import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { encodeWav } from '../recording/stereo-wav';
import { upsampleMulawTo16k } from './upsample';

const run = promisify(execFile);
/** Debian's pocketsphinx-en-us: the acoustic model (`en-us`) and its pronunciation dictionary. */
export const MODEL = '/usr/share/pocketsphinx/model/en-us';

/**
 * How a local recogniser hears a speech gather (docs/voice-recognition.md): `grammar` forces every utterance into
 * the phrases' words; `keywords` spots the phrases and hears nothing in speech that holds none of them.
 */
export type RecognitionMethod = 'grammar' | 'keywords';

/** Recognises callee speech among expected phrases (docs/voice-agents.md#speech-input). */
export interface SpeechRecognizer {
  /**
   * The words heard, from the vocabulary of `phrases`; empty when nothing was recognised. `method` applies to the
   * local recogniser; a remote one transcribes freely whatever it is.
   * @defaultValue method `grammar`
   */
  recognize(mulaw: Buffer, phrases: string[], method?: RecognitionMethod): Promise<string>;
}

/**
 * The dictionary's lines for one word (its pronunciations: `word …`, `word(2) …`), found in the dictionary's text,
 * which starts with a newline. Searching the text per word costs a few milliseconds; parsing all 130,000 entries
 * into a map cost two seconds of CPU on a loaded machine.
 */
export function pronunciations(dictionary: string, word: string): string[] {
  const lines: string[] = [];
  for (const prefix of [`\n${word} `, `\n${word}(`]) {
    for (let at = dictionary.indexOf(prefix); at >= 0; at = dictionary.indexOf(prefix, at + 1)) {
      const end = dictionary.indexOf('\n', at + 1);
      lines.push(dictionary.slice(at + 1, end < 0 ? undefined : end));
    }
  }
  return lines;
}

/** The pronunciation dictionary's text, read once, starting with a newline (see `pronunciations`). */
export function loadDictionary(): Promise<string> {
  const dictionary = readFile(join(MODEL, 'cmudict-en-us.dict'), 'utf8').then((text) => `\n${text}`);
  dictionary.catch(() => undefined); // a missing model surfaces on the first recognition
  return dictionary;
}

/** Each word of the phrases that the pronunciation dictionary knows, with its lines: a JSGF grammar may only use those. */
export function vocabulary(phrases: string[], dictionary: string): Map<string, string[]> {
  const words = [...new Set(phrases.flatMap((p) => p.toLowerCase().split(/[^a-z']+/)).filter(Boolean))].sort();
  return new Map(words.map((w) => [w, pronunciations(dictionary, w)] as const).filter(([, lines]) => lines.length > 0));
}

/** How pocketsphinx searches the audio: a JSGF grammar, or a list of key phrases with their thresholds. */
export type PocketsphinxSearch = { jsgf: string } | { kws: string };

/**
 * One run of Debian's pocketsphinx over 16 kHz audio with a dictionary of the given words only and `search`;
 * answers what it printed. Both local methods (the grammar here, the phrase spotter) run through it. `mllr` is a
 * transform of the model's means (pocketsphinx's `-mllr`), such as the telephone-band adaptation.
 */
export async function runPocketsphinx(pcm16k: Int16Array, known: Map<string, string[]>, search: PocketsphinxSearch, mllr?: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sb-stt-'));
  try {
    await writeFile(join(dir, 'speech.wav'), encodeWav(pcm16k, 1, 16_000));
    await writeFile(join(dir, 'words.dict'), `${[...known.values()].flat().join('\n')}\n`);
    const [flag, text] = 'jsgf' in search ? ['-jsgf', search.jsgf] : ['-kws', search.kws];
    await writeFile(join(dir, 'search.txt'), text);
    const { stdout } = await run('pocketsphinx_continuous', [
      '-infile',
      join(dir, 'speech.wav'),
      flag,
      join(dir, 'search.txt'),
      '-hmm',
      join(MODEL, 'en-us'),
      '-dict',
      join(dir, 'words.dict'),
      '-logfn',
      '/dev/null',
      ...(mllr ? ['-mllr', mllr] : []),
    ]);
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Debian's pocketsphinx with its en-us model and a grammar that accepts any sequence of the expected phrases' words,
 * which keeps a phrase recognisable when the callee says it inside a longer sentence. It cannot say "none of
 * these": every utterance comes out as branch words. A gather with `recognition: "keywords"` uses the phrase
 * spotter instead (docs/voice-recognition.md).
 */
export function createPocketsphinxRecognizer(): SpeechRecognizer {
  // pocketsphinx gets a dictionary of the grammar's words only: loading all 130,000 entries took it about a second
  // per utterance, most of its time (docs/performance/voice.md#speech-turn). The full text is read once, at start-up.
  const dictionary = loadDictionary();
  return {
    async recognize(mulaw, phrases) {
      const known = vocabulary(phrases, await dictionary);
      const words = [...known.keys()];
      if (words.length === 0 || mulaw.length === 0) return '';
      const grammar = `#JSGF V1.0;\ngrammar choices;\npublic <utterance> = <word>+;\n<word> = ${words.join(' | ')};\n`;
      const stdout = await runPocketsphinx(upsampleMulawTo16k(mulaw), known, { jsgf: grammar });
      return stdout.trim().split(/\s+/).filter(Boolean).join(' ');
    },
  };
}

/**
 * The branch whose phrase has the most of its words in what was heard; all its words must be there. Punctuation and
 * case are ignored, as a remote recognizer writes "I want to speak to sales." (docs/voice-agents.md#speech-input).
 */
export function matchPhrase(heard: string, phrases: string[]): number {
  const said = new Set(heard.toLowerCase().split(/[^a-z']+/));
  let best = -1;
  let bestWords = 0;
  phrases.forEach((phrase, i) => {
    const words = phrase
      .toLowerCase()
      .split(/[^a-z']+/)
      .filter(Boolean);
    if (words.length > bestWords && words.every((w) => said.has(w))) {
      best = i;
      bestWords = words.length;
    }
  });
  return best;
}
