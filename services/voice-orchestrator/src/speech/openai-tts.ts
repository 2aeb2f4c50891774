import { audioApiError, audioUrl, bearer, type OpenAiAudioEndpoint } from './openai-audio.endpoint';
import { OPENAI_PCM_RATE, parseWav, readInt16LE, toLineMulaw } from './speech-audio.codec';
import { createCachedTts, type TextToSpeech } from './tts-cache';

export type SpeechResponseFormat = 'wav' | 'pcm';

/**
 * An OpenAI-compatible `POST /v1/audio/speech` (docs/voice-agents.md#remote-speech-providers): `{ model, input, voice,
 * response_format }` answered with the audio itself, either a WAV or raw 24 kHz 16-bit mono PCM, which is resampled
 * to 8 kHz μ-law. Cached by (provider, voice, text) like the local engines. A non-2xx answer, a malformed body or the
 * timeout rejects, and the flow's say fails with it.
 */
export function createOpenAiTts(opts: {
  endpoint: OpenAiAudioEndpoint;
  responseFormat: SpeechResponseFormat;
  defaultVoice: string;
  cacheEntries: number;
}): TextToSpeech {
  const { endpoint } = opts;
  return createCachedTts({
    provider: 'openai',
    defaultVoice: opts.defaultVoice,
    cacheEntries: opts.cacheEntries,
    voicePattern: /^[A-Za-z0-9_.-]{1,64}$/,
    synthesize: async (text, voice) => {
      const res = await fetch(audioUrl(endpoint, '/v1/audio/speech'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(endpoint) },
        body: JSON.stringify(speechRequest(endpoint.model, text, voice, opts.responseFormat)),
        signal: AbortSignal.timeout(endpoint.timeoutMs),
      });
      if (!res.ok) throw await audioApiError('speech API', res);
      return decodeSpeech(Buffer.from(await res.arrayBuffer()), opts.responseFormat);
    },
  });
}

export function speechRequest(model: string, input: string, voice: string, responseFormat: SpeechResponseFormat) {
  return { model, input, voice, response_format: responseFormat };
}

/** The speech API's answer as the line carries it. Empty audio is an error: a say must be heard. */
export function decodeSpeech(body: Buffer, format: SpeechResponseFormat): Buffer {
  const audio = format === 'wav' ? parseWav(body) : { sampleRate: OPENAI_PCM_RATE, samples: readInt16LE(body) };
  if (audio.samples.length === 0) throw new RangeError('speech API answered no audio');
  return toLineMulaw(audio);
}
