import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { encodeMulaw, type SimCallerVoice } from '@switchboard/telephony';

const run = promisify(execFile);
const SAMPLE_RATE = 8000;

/** A local speech engine and one of its voices: flite (`rms`, `slt`, `kal`, `awb`) or espeak-ng (`en-us`, `en-gb+m3`, …). */
export type CalleeVoice = SimCallerVoice;

/** Speech as a real phone would carry it: flite or espeak-ng, resampled by sox to 8 kHz μ-law. */
export async function speakMulaw(text: string, voice: CalleeVoice = { engine: 'flite', voice: 'rms' }): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'sim-tts-'));
  try {
    // The text goes in a file, so that a text starting with `-` is never read as an option.
    await writeFile(join(dir, 'speech.txt'), text);
    if (voice.engine === 'espeak') await run('espeak-ng', ['-v', voice.voice, '-f', join(dir, 'speech.txt'), '-w', join(dir, 'speech.wav')]);
    else await run('flite', ['-voice', voice.voice, '-f', join(dir, 'speech.txt'), '-o', join(dir, 'speech.wav')]);
    await run('sox', [join(dir, 'speech.wav'), '-r', String(SAMPLE_RATE), '-c', '1', '-e', 'mu-law', '-t', 'raw', join(dir, 'speech.ul')]);
    return await readFile(join(dir, 'speech.ul'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A sine tone: the voicemail beep. */
export function toneMulaw(frequencyHz: number, ms: number, amplitude = 12_000): Buffer {
  const samples = new Int16Array((SAMPLE_RATE * ms) / 1000);
  for (let i = 0; i < samples.length; i += 1) samples[i] = Math.round(amplitude * Math.sin((2 * Math.PI * frequencyHz * i) / SAMPLE_RATE));
  return encodeMulaw(samples);
}

/** Exactly `ms` of audio: cut, or padded with μ-law silence. */
export function fitMulaw(audio: Buffer, ms: number): Buffer {
  const bytes = (SAMPLE_RATE * ms) / 1000;
  if (audio.length >= bytes) return audio.subarray(0, bytes);
  return Buffer.concat([audio, Buffer.alloc(bytes - audio.length, 0xff)]);
}
