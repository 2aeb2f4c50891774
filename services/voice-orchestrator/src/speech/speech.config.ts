import type { EnvReader } from '@switchboard/runtime';
import type { OpenAiAudioEndpoint } from './openai-audio.endpoint';
import type { SpeechResponseFormat } from './openai-tts';

export const TTS_PROVIDERS = ['flite', 'espeak', 'openai'] as const;
export const STT_PROVIDERS = ['pocketsphinx', 'openai'] as const;
export type TtsProvider = (typeof TTS_PROVIDERS)[number];
export type SttProvider = (typeof STT_PROVIDERS)[number];

/** 500 prompts: an agent's fixed sentences are a few dozen, so every one of them stays synthesized (docs/voice-agents.md#speech-providers). */
export const TTS_CACHE_ENTRIES = 500;
/** 10 s for one remote speech request: a caller hears silence meanwhile (docs/voice-agents.md#remote-speech-providers). */
export const SPEECH_REQUEST_TIMEOUT_MS = 10_000;

/** Each provider's own voice names differ, so the default voice follows the provider. */
const DEFAULT_VOICE: Record<TtsProvider, string> = { flite: 'slt', espeak: 'en-us', openai: 'alloy' };

/** Which engines speak and listen for every call of this process (docs/voice-agents.md#speech-providers). */
export interface SpeechConfig {
  tts: { provider: TtsProvider; voice: string; cacheEntries: number; remote?: OpenAiAudioEndpoint & { responseFormat: SpeechResponseFormat } };
  stt: { provider: SttProvider; remote?: OpenAiAudioEndpoint };
}

function oneOf<T extends string>(r: EnvReader, name: string, allowed: readonly T[], fallback: T): T {
  const value = r.string(name, fallback);
  if ((allowed as readonly string[]).includes(value)) return value as T;
  r.problems.push(`${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return fallback;
}

function remoteEndpoint(r: EnvReader, prefix: 'VOICE_TTS' | 'VOICE_STT', defaultModel: string): OpenAiAudioEndpoint {
  const baseUrl = r.string(`${prefix}_URL`);
  if (baseUrl && !/^https?:\/\/[^\s/]+/.test(baseUrl)) r.problems.push(`${prefix}_URL must be an http(s) URL, got "${baseUrl}"`);
  return {
    baseUrl,
    apiKey: r.optionalString(`${prefix}_API_KEY`),
    model: r.string(`${prefix}_MODEL`, defaultModel),
    timeoutMs: SPEECH_REQUEST_TIMEOUT_MS,
  };
}

/** Reads VOICE_TTS_* and VOICE_STT_*; a remote provider requires its URL. */
export function readSpeechConfig(r: EnvReader): SpeechConfig {
  const ttsProvider = oneOf(r, 'VOICE_TTS_PROVIDER', TTS_PROVIDERS, 'flite');
  const sttProvider = oneOf(r, 'VOICE_STT_PROVIDER', STT_PROVIDERS, 'pocketsphinx');
  return {
    tts: {
      provider: ttsProvider,
      voice: r.string('VOICE_TTS_VOICE', DEFAULT_VOICE[ttsProvider]),
      cacheEntries: TTS_CACHE_ENTRIES,
      remote:
        ttsProvider === 'openai'
          ? { ...remoteEndpoint(r, 'VOICE_TTS', 'tts-1'), responseFormat: oneOf<SpeechResponseFormat>(r, 'VOICE_TTS_RESPONSE_FORMAT', ['wav', 'pcm'], 'wav') }
          : undefined,
    },
    stt: { provider: sttProvider, remote: sttProvider === 'openai' ? remoteEndpoint(r, 'VOICE_STT', 'whisper-1') : undefined },
  };
}

/** The speech settings without API keys, for the start-up log. */
export function describeSpeechConfig(c: SpeechConfig) {
  const hide = <T extends { apiKey?: string }>(remote?: T) => (remote ? { ...remote, apiKey: remote.apiKey ? '***' : undefined } : undefined);
  return { tts: { ...c.tts, remote: hide(c.tts.remote) }, stt: { ...c.stt, remote: hide(c.stt.remote) } };
}
