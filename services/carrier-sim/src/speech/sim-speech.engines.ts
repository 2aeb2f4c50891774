import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const MODEL = '/usr/share/pocketsphinx/model/en-us';
/** flite's voices; the stand-in speaks any other voice name (`alloy`, `nova`, …) with the first. */
const FLITE_VOICES = ['slt', 'rms', 'awb', 'kal'];

async function inTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'sim-speech-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** flite's rendering of the text: a 16 kHz WAV as it writes it, or raw 24 kHz 16-bit mono PCM as OpenAI's `pcm`. */
export function renderSpeech(text: string, voice: string, format: 'wav' | 'pcm'): Promise<Buffer> {
  return inTempDir(async (dir) => {
    await writeFile(join(dir, 'input.txt'), text);
    const wav = join(dir, 'speech.wav');
    await run('flite', ['-voice', FLITE_VOICES.includes(voice) ? voice : FLITE_VOICES[0], '-f', join(dir, 'input.txt'), '-o', wav]);
    if (format === 'wav') return readFile(wav);
    await run('sox', [wav, '-r', '24000', '-c', '1', '-b', '16', '-e', 'signed-integer', '-L', '-t', 'raw', join(dir, 'speech.pcm')]);
    return readFile(join(dir, 'speech.pcm'));
  });
}

let dictionary: Set<string> | undefined;
const loadDictionary = () =>
  (dictionary ??= new Set(
    readFileSync(join(MODEL, 'cmudict-en-us.dict'), 'utf8')
      .split('\n')
      .map((line) => line.split(' ')[0])
      .filter((w) => w && !w.includes('(')),
  ));

/** The words of the prompt that the pronunciation dictionary knows, sorted: the grammar's vocabulary. */
export function promptVocabulary(prompt: string, known: (word: string) => boolean = (w) => loadDictionary().has(w)): string[] {
  return [
    ...new Set(
      prompt
        .toLowerCase()
        .split(/[^a-z']+/)
        .filter((w) => w && known(w)),
    ),
  ].sort();
}

/**
 * Deterministic transcription with Debian's pocketsphinx: the uploaded audio is converted by sox to 16 kHz mono
 * and decoded with a JSGF grammar of the prompt's words (docs/sandbox.md#speech-stand-ins). Without a usable prompt
 * nothing can be recognised and the text is empty, as an open vocabulary is unusable with this model.
 */
export function transcribe(audio: Buffer, prompt: string): Promise<string> {
  const words = promptVocabulary(prompt);
  if (words.length === 0) return Promise.resolve('');
  return inTempDir(async (dir) => {
    // The orchestrator uploads WAV; anything else fails in sox, which the route answers as a bad file.
    await writeFile(join(dir, 'upload.wav'), audio);
    await writeFile(join(dir, 'prompt.gram'), `#JSGF V1.0;\ngrammar prompt;\npublic <utterance> = <word>+;\n<word> = ${words.join(' | ')};\n`);
    await run('sox', [join(dir, 'upload.wav'), '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', join(dir, 'speech.wav')]);
    const { stdout } = await run('pocketsphinx_continuous', [
      '-infile',
      join(dir, 'speech.wav'),
      '-jsgf',
      join(dir, 'prompt.gram'),
      '-hmm',
      join(MODEL, 'en-us'),
      '-dict',
      join(MODEL, 'cmudict-en-us.dict'),
      '-logfn',
      '/dev/null',
    ]);
    return stdout.trim().split(/\s+/).filter(Boolean).join(' ');
  });
}
