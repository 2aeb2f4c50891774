import { createEspeakTts } from './espeak-tts';
import { createFliteTts } from './flite-tts';
import { createOpenAiRecognizer } from './openai-stt';
import { createOpenAiTts } from './openai-tts';
import { createPhraseSpotter } from './phrase-spotter';
import { createPocketsphinxRecognizer, type SpeechRecognizer } from './pocketsphinx-stt';
import type { SpeechConfig } from './speech.config';
import type { TextToSpeech } from './tts-cache';

/** The TTS engine chosen by VOICE_TTS (docs/voice-agents.md#speech-providers). */
export function createTextToSpeech(c: SpeechConfig['tts']): TextToSpeech {
  const local = { defaultVoice: c.voice, cacheEntries: c.cacheEntries };
  if (c.provider === 'openai' && c.remote) return createOpenAiTts({ endpoint: c.remote, responseFormat: c.remote.responseFormat, ...local });
  return c.provider === 'espeak' ? createEspeakTts(local) : createFliteTts(local);
}

/** The recognizer chosen by VOICE_STT (docs/voice-agents.md#speech-providers). */
export function createSpeechRecognizer(c: SpeechConfig['stt']): SpeechRecognizer {
  if (c.provider === 'openai' && c.remote) return createOpenAiRecognizer(c.remote);
  const grammar = createPocketsphinxRecognizer();
  const spotter = createPhraseSpotter();
  return { recognize: (mulaw, phrases, method) => (method === 'keywords' ? spotter : grammar).recognize(mulaw, phrases) };
}
