/**
 * Where an OpenAI-compatible audio API is and how to call it (docs/voice-agents.md#remote-speech-providers). Requests go
 * through Node's fetch, whose shared undici pool keeps connections alive between a call's turns and across calls.
 */
export interface OpenAiAudioEndpoint {
  /** Base URL without `/v1`, as in LLM_URL: `https://api.openai.com` serves `/v1/audio/speech`. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Hard limit on one request, from sending it to reading the whole answer. */
  timeoutMs: number;
}

export const audioUrl = (endpoint: OpenAiAudioEndpoint, path: '/v1/audio/speech' | '/v1/audio/transcriptions') =>
  `${endpoint.baseUrl.replace(/\/+$/, '')}${path}`;

export const bearer = (endpoint: OpenAiAudioEndpoint): Record<string, string> => (endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {});

/**
 * The error an OpenAI-compatible API answered, in its `{ error: { message } }` shape when it has one. The message is
 * the provider's, so the log says what was wrong (an unknown voice, a bad key) without the request's text.
 */
export async function audioApiError(what: string, res: Response): Promise<Error> {
  let message = '';
  try {
    const body = (await res.json()) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string') message = `: ${body.error.message.slice(0, 200)}`;
  } catch {
    // Not JSON: the status says enough.
  }
  return new Error(`${what} answered HTTP ${res.status}${message}`);
}
