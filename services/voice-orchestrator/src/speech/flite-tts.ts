import { renderWithCommand } from './local-command-tts';
import { createCachedTts, type TextToSpeech } from './tts-cache';

export type { TextToSpeech } from './tts-cache';

/**
 * Debian's flite (voices such as `slt`, `rms`, `awb`, `kal`) writes a 16 kHz WAV, which sox resamples to 8 kHz
 * μ-law; output is cached by (voice, text) (docs/voice-agents.md#speech-providers).
 */
export function createFliteTts(opts: { defaultVoice: string; cacheEntries: number }): TextToSpeech {
  return createCachedTts({
    provider: 'flite',
    defaultVoice: opts.defaultVoice,
    cacheEntries: opts.cacheEntries,
    voicePattern: /^[a-z0-9_-]{1,40}$/,
    synthesize: (text, voice) => renderWithCommand(text, (textFile, wav) => ['flite', ['-voice', voice, '-f', textFile, '-o', wav]]),
  });
}
