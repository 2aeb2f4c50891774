import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { trimLeadingSilence } from './leading-silence';

const run = promisify(execFile);

/** Text to 8 kHz G.711 μ-law, ready for `CallLeg.play`. */
export interface TextToSpeech {
  synthesize(text: string, voice?: string): Promise<Buffer>;
}

/**
 * Debian's flite (voices such as `slt`, `rms`, `awb`, `kal`) writes a 16 kHz WAV, which sox resamples to 8 kHz
 * μ-law. Output is cached by (voice, text): prompts repeat across calls, and synthesis costs more than a turn's
 * latency budget. The cache keeps the most recently used entries.
 */
export function createFliteTts(opts: { defaultVoice: string; cacheEntries: number }): TextToSpeech {
  const cache = new Map<string, Promise<Buffer>>();

  const synthesizeUncached = async (text: string, voice: string): Promise<Buffer> => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-tts-'));
    try {
      const wav = join(dir, 'speech.wav');
      const ulaw = join(dir, 'speech.ul');
      await run('flite', ['-voice', voice, '-t', text, '-o', wav]);
      await run('sox', [wav, '-r', '8000', '-c', '1', '-e', 'mu-law', '-t', 'raw', ulaw]);
      return trimLeadingSilence(await readFile(ulaw));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };

  return {
    synthesize(text, voice = opts.defaultVoice) {
      if (!/^[a-z0-9_-]{1,40}$/.test(voice)) return Promise.reject(new RangeError(`not a voice name: ${voice}`));
      const key = `${voice}\n${text}`;
      const cached = cache.get(key);
      if (cached) {
        cache.delete(key);
        cache.set(key, cached);
        return cached;
      }
      const made = synthesizeUncached(text, voice);
      if (opts.cacheEntries > 0) {
        cache.set(key, made);
        made.catch(() => cache.delete(key));
        while (cache.size > opts.cacheEntries) cache.delete(cache.keys().next().value as string);
      }
      return made;
    },
  };
}
