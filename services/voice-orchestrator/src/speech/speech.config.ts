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

/**
 * WAV from a remote TTS: its header states the sample rate, so a compatible server whose rate is not OpenAI's 24 kHz
 * is still decoded right; raw `pcm` saves only the 44-byte header.
 */
export const TTS_RESPONSE_FORMAT: SpeechResponseFormat = 'wav';

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

/** The variables of one remote endpoint, written out so that docs/configuration.md can be checked against them. */
const REMOTE_VARIABLES = {
  tts: { url: 'VOICE_TTS_URL', apiKey: 'VOICE_TTS_API_KEY', model: 'VOICE_TTS_MODEL' },
  stt: { url: 'VOICE_STT_URL', apiKey: 'VOICE_STT_API_KEY', model: 'VOICE_STT_MODEL' },
} as const;

function remoteEndpoint(r: EnvReader, names: (typeof REMOTE_VARIABLES)['tts' | 'stt'], defaultModel: string): OpenAiAudioEndpoint {
  const baseUrl = r.string(names.url);
  if (baseUrl && !/^https?:\/\/[^\s/]+/.test(baseUrl)) r.problems.push(`${names.url} must be an http(s) URL, got "${baseUrl}"`);
  return {
    baseUrl,
    apiKey: r.optionalString(names.apiKey),
    model: r.string(names.model, defaultModel),
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
      remote: ttsProvider === 'openai' ? { ...remoteEndpoint(r, REMOTE_VARIABLES.tts, 'tts-1'), responseFormat: TTS_RESPONSE_FORMAT } : undefined,
    },
    stt: { provider: sttProvider, remote: sttProvider === 'openai' ? remoteEndpoint(r, REMOTE_VARIABLES.stt, 'whisper-1') : undefined },
  };
}

/** The speech settings without API keys, for the start-up log. */
export function describeSpeechConfig(c: SpeechConfig) {
  const hide = <T extends { apiKey?: string }>(remote?: T) => (remote ? { ...remote, apiKey: remote.apiKey ? '***' : undefined } : undefined);
  return { tts: { ...c.tts, remote: hide(c.tts.remote) }, stt: { ...c.stt, remote: hide(c.stt.remote) } };
}
