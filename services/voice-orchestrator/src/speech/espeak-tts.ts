import { renderWithCommand } from './local-command-tts';
import { createCachedTts, type TextToSpeech } from './tts-cache';

/**
 * Debian's espeak-ng (voices such as `en-us`, `en-gb`, `en-us+f3`: a language, optionally with a variant) writes a
 * 22 kHz WAV, which sox resamples to 8 kHz μ-law; output is cached by (voice, text) (docs/voice-agents.md#speech-providers).
 */
export function createEspeakTts(opts: { defaultVoice: string; cacheEntries: number }): TextToSpeech {
  return createCachedTts({
    provider: 'espeak',
    defaultVoice: opts.defaultVoice,
    cacheEntries: opts.cacheEntries,
    voicePattern: /^[a-z0-9_-]{1,40}(\+[a-z0-9_-]{1,20})?$/,
    synthesize: (text, voice) => renderWithCommand(text, (textFile, wav) => ['espeak-ng', ['-v', voice, '-f', textFile, '-w', wav]]),
  });
}
