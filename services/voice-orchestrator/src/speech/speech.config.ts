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

const REMOTE_URL = /^https?:\/\/[^\s/]+/;

/**
 * VOICE_TTS / VOICE_STT: which engine speaks or listens is one decision, so one variable holds it: a local engine by
 * name, or the base URL (without `/v1`) of a remote OpenAI-compatible server, which then is the `openai` provider.
 */
function engine<T extends string>(r: EnvReader, name: string, local: readonly T[], fallback: T): { provider: T | 'openai'; url?: string } {
  const value = r.string(name, fallback);
  if ((local as readonly string[]).includes(value)) return { provider: value as T };
  if (REMOTE_URL.test(value)) return { provider: 'openai', url: value.replace(/\/+$/, '') };
  r.problems.push(`${name} must be ${local.join(', ')} or the http(s) URL of an OpenAI-compatible server, got "${value}"`);
  return { provider: fallback };
}

function remoteEndpoint(r: EnvReader, baseUrl: string, names: { apiKey: string; model: string }, defaultModel: string): OpenAiAudioEndpoint {
  return { baseUrl, apiKey: r.optionalString(names.apiKey), model: r.string(names.model, defaultModel), timeoutMs: SPEECH_REQUEST_TIMEOUT_MS };
}

/** Reads VOICE_TTS, VOICE_STT and, for a remote engine, its key and model. */
export function readSpeechConfig(r: EnvReader): SpeechConfig {
  const tts = engine(r, 'VOICE_TTS', ['flite', 'espeak'] as const, 'flite');
  const stt = engine(r, 'VOICE_STT', ['pocketsphinx'] as const, 'pocketsphinx');
  return {
    tts: {
      provider: tts.provider,
      voice: r.string('VOICE_TTS_VOICE', DEFAULT_VOICE[tts.provider]),
      cacheEntries: TTS_CACHE_ENTRIES,
      remote: tts.url
        ? { ...remoteEndpoint(r, tts.url, { apiKey: 'VOICE_TTS_API_KEY', model: 'VOICE_TTS_MODEL' }, 'tts-1'), responseFormat: TTS_RESPONSE_FORMAT }
        : undefined,
    },
    stt: {
      provider: stt.provider,
      remote: stt.url ? remoteEndpoint(r, stt.url, { apiKey: 'VOICE_STT_API_KEY', model: 'VOICE_STT_MODEL' }, 'whisper-1') : undefined,
    },
  };
}

/** The speech settings without API keys, for the start-up log. */
export function describeSpeechConfig(c: SpeechConfig) {
  const hide = <T extends { apiKey?: string }>(remote?: T) => (remote ? { ...remote, apiKey: remote.apiKey ? '***' : undefined } : undefined);
  return { tts: { ...c.tts, remote: hide(c.tts.remote) }, stt: { ...c.stt, remote: hide(c.stt.remote) } };
}
