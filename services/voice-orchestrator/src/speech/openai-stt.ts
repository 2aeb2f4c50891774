import { audioApiError, audioUrl, bearer, type OpenAiAudioEndpoint } from './openai-audio.endpoint';
import type { SpeechRecognizer } from './pocketsphinx-stt';
import { lineMulawToWav } from './speech-audio.codec';

/**
 * The multipart form of one transcription request: the utterance as an 8 kHz WAV, the model, and the gather's
 * expected phrases as the `prompt`, which is how the OpenAI API takes vocabulary hints.
 */
export function transcriptionForm(mulaw: Buffer, model: string, phrases: string[]): FormData {
  const form = new FormData();
  form.append('file', new Blob([lineMulawToWav(mulaw)], { type: 'audio/wav' }), 'utterance.wav');
  form.append('model', model);
  const prompt = phrases
    .map((p) => p.trim())
    .filter(Boolean)
    .join(', ');
  if (prompt) form.append('prompt', prompt);
  form.append('response_format', 'json');
  return form;
}

/**
 * An OpenAI-compatible `POST /v1/audio/transcriptions` (docs/voice-agents.md#remote-speech-providers), answered
 * `{ text }`. The text is returned as heard and matched against the gather's branches as the local path's is. A
 * non-2xx answer, a body without `text` or the timeout rejects, and the flow fails with it.
 */
export function createOpenAiRecognizer(endpoint: OpenAiAudioEndpoint): SpeechRecognizer {
  return {
    async recognize(mulaw, phrases) {
      if (mulaw.length === 0) return '';
      const res = await fetch(audioUrl(endpoint, '/v1/audio/transcriptions'), {
        method: 'POST',
        headers: bearer(endpoint),
        body: transcriptionForm(mulaw, endpoint.model, phrases),
        signal: AbortSignal.timeout(endpoint.timeoutMs),
      });
      if (!res.ok) throw await audioApiError('transcription API', res);
      return transcriptionText(await res.json());
    },
  };
}

export function transcriptionText(body: unknown): string {
  const text = (body as { text?: unknown } | null)?.text;
  if (typeof text !== 'string') throw new TypeError('transcription API answered without a text');
  return text.trim();
}
