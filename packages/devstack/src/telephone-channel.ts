import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A local speech engine and one of its voices: flite's `kal`, `awb`, `rms`, `slt`; espeak-ng's `en-us`, `en-gb+m3`, … */
export interface EvalVoice {
  engine: 'flite' | 'espeak';
  voice: string;
}

/** Silence before and after the speech, as a turn cut by the voice activity detector has (300 ms at 8 kHz). */
const PAD_SAMPLES = 2_400;

/** A frame counts as active speech within 30 dB of the loudest 20 ms frame, for the speech level of the SNR. */
const ACTIVE_FRAME_RANGE = 1_000;

/** A repeatable generator (mulberry32): the same text and voice always get the same noise. */
function seededRandom(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function seedOf(text: string): number {
  let hash = 2_166_136_261;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 16_777_619);
  return hash;
}

/** Adds white Gaussian noise at `snrDb` below the speech's active level (the mean power of its active frames). */
function addNoise(samples: Float64Array, snrDb: number, seed: number): void {
  const powers: number[] = [];
  for (let at = 0; at + 160 <= samples.length; at += 160) {
    let sum = 0;
    for (let i = at; i < at + 160; i++) sum += samples[i] * samples[i];
    powers.push(sum / 160);
  }
  const loudest = Math.max(...powers);
  const active = powers.filter((p) => p > loudest / ACTIVE_FRAME_RANGE);
  const speechPower = active.reduce((a, b) => a + b, 0) / active.length;
  const sigma = Math.sqrt(speechPower / 10 ** (snrDb / 10));
  const random = seededRandom(seed);
  for (let i = 0; i < samples.length; i++) {
    const u = random() || Number.MIN_VALUE;
    samples[i] += sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  }
}

/**
 * Speaks `text` with a local engine and passes it through a telephone channel: 8 kHz, noise at `snrDb` when given,
 * a 300–3,400 Hz band-pass (sox), then G.711 μ-law, as the orchestrator receives a caller (docs/voice-recognition.md).
 */
export async function speakThroughTelephone(text: string, voice: EvalVoice, snrDb: number | null): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'sb-channel-'));
  try {
    const textFile = join(dir, 'text.txt');
    await writeFile(textFile, text);
    const wav = join(dir, 'speech.wav');
    if (voice.engine === 'flite') await run('flite', ['-voice', voice.voice, '-f', textFile, '-o', wav]);
    else await run('espeak-ng', ['-v', voice.voice, '-f', textFile, '-w', wav]);
    const pcmFile = join(dir, 'speech.raw');
    await run('sox', ['-D', '-R', wav, '-r', '8000', '-c', '1', '-b', '16', '-e', 'signed', '-t', 'raw', pcmFile]);
    const pcm = await readFile(pcmFile);
    const samples = new Float64Array(pcm.length / 2 + 2 * PAD_SAMPLES);
    for (let i = 0; i < pcm.length / 2; i++) samples[PAD_SAMPLES + i] = pcm.readInt16LE(2 * i);
    if (snrDb !== null) addNoise(samples, snrDb, seedOf(`${voice.engine}/${voice.voice}/${text}`));
    const line = Buffer.alloc(samples.length * 2);
    samples.forEach((s, i) => line.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(s))), 2 * i));
    await writeFile(join(dir, 'line.raw'), line);
    const mulawFile = join(dir, 'line.ul');
    await run('sox', [
      '-D',
      '-R',
      '-t',
      'raw',
      '-r',
      '8000',
      '-e',
      'signed',
      '-b',
      '16',
      '-c',
      '1',
      join(dir, 'line.raw'),
      '-e',
      'mu-law',
      '-t',
      'raw',
      mulawFile,
      'sinc',
      '300-3400',
    ]);
    return await readFile(mulawFile);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
