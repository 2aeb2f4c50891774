import type { EnvReader } from '@switchboard/runtime';
import { openAiServerUrlFormat, parseOpenAiServerUrl, withoutPassword } from '../openai-server-url';
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

/** The forms of VOICE_TTS and VOICE_STT, for the message of a bad value. */
export const TTS_FORMAT = `flite[:voice], espeak[:voice] or ${openAiServerUrlFormat({ model: 'tts-1', voice: 'alloy' })}`;
export const STT_FORMAT = `pocketsphinx or ${openAiServerUrlFormat({ model: 'whisper-1' })}`;

const LOCAL_TTS = /^(flite|espeak)(?::(\S*))?$/;

/**
 * VOICE_TTS: which engine speaks, and with which voice, is one decision, so one URI holds it: a local engine by name
 * with an optional voice (`flite:kal`), or a remote OpenAI-compatible server (then the `openai` provider) with its key,
 * model and voice (docs/voice-agents.md#speech-providers).
 */
export function parseTtsEngine(text: string): SpeechConfig['tts'] {
  const local = LOCAL_TTS.exec(text.trim());
  if (local) {
    const provider = local[1] as 'flite' | 'espeak';
    if (local[2] === '') throw new Error(`no voice after "${provider}:"`);
    return { provider, voice: local[2] ?? DEFAULT_VOICE[provider], cacheEntries: TTS_CACHE_ENTRIES, remote: undefined };
  }
  if (!/^https?:/i.test(text.trim())) throw new Error(`"${withoutPassword(text)}" is neither flite, espeak nor an http(s) URL`);
  const { baseUrl, apiKey, params } = parseOpenAiServerUrl(text, ['model', 'voice']);
  return {
    provider: 'openai',
    voice: params.voice ?? DEFAULT_VOICE.openai,
    cacheEntries: TTS_CACHE_ENTRIES,
    remote: { baseUrl, apiKey, model: params.model ?? 'tts-1', timeoutMs: SPEECH_REQUEST_TIMEOUT_MS, responseFormat: TTS_RESPONSE_FORMAT },
  };
}

/** VOICE_STT: `pocketsphinx`, or a remote OpenAI-compatible server with its key and model. */
export function parseSttEngine(text: string): SpeechConfig['stt'] {
  if (text.trim() === 'pocketsphinx') return { provider: 'pocketsphinx', remote: undefined };
  if (!/^https?:/i.test(text.trim())) throw new Error(`"${withoutPassword(text)}" is neither pocketsphinx nor an http(s) URL`);
  const { baseUrl, apiKey, params } = parseOpenAiServerUrl(text, ['model']);
  return { provider: 'openai', remote: { baseUrl, apiKey, model: params.model ?? 'whisper-1', timeoutMs: SPEECH_REQUEST_TIMEOUT_MS } };
}

/** Reads VOICE_TTS and VOICE_STT, each one URI. */
export function readSpeechConfig(r: EnvReader): SpeechConfig {
  return {
    tts: r.optionalString('VOICE_TTS') ? r.parsed('VOICE_TTS', parseTtsEngine, TTS_FORMAT) : parseTtsEngine('flite'),
    stt: r.optionalString('VOICE_STT') ? r.parsed('VOICE_STT', parseSttEngine, STT_FORMAT) : parseSttEngine('pocketsphinx'),
  };
}

/** The speech settings without API keys, for the start-up log. */
export function describeSpeechConfig(c: SpeechConfig) {
  const hide = <T extends { apiKey?: string }>(remote?: T) => (remote ? { ...remote, apiKey: remote.apiKey ? '***' : undefined } : undefined);
  return { tts: { ...c.tts, remote: hide(c.tts.remote) }, stt: { ...c.stt, remote: hide(c.stt.remote) } };
}
