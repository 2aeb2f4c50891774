import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SpeechFixture {
  /** 8 kHz mono 16-bit WAV of the phrase followed by `padSeconds` of silence: a source for baresip's aufile. */
  paddedWavPath: string;
  /** The phrase as 8 kHz G.711 μ-law bytes, converted by sox, for us to play. */
  mulaw: Buffer;
}

/** Speaks a phrase with flite and converts it with sox (both installed by ensureVoiceTools). */
export function makeSpeech(dir: string, name: string, text: string, padSeconds: number): SpeechFixture {
  const raw = join(dir, `${name}-flite.wav`);
  execFileSync('flite', ['-t', text, '-o', raw]);
  const paddedWavPath = join(dir, `${name}-8k.wav`);
  execFileSync('sox', [raw, '-r', '8000', '-c', '1', '-b', '16', '-e', 'signed-integer', paddedWavPath, 'pad', '0', String(padSeconds)]);
  const mulawPath = join(dir, `${name}.ul`);
  execFileSync('sox', [raw, '-t', 'raw', '-r', '8000', '-c', '1', '-e', 'mu-law', mulawPath]);
  return { paddedWavPath, mulaw: readFileSync(mulawPath) };
}
