/** The fields of a `POST /v1/audio/transcriptions` this stand-in reads. */
export interface TranscriptionRequest {
  file: Buffer;
  model: string;
  prompt: string;
  responseFormat: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; param: string | null; message: string };

const RESPONSE_FORMATS = ['json', 'text', 'verbose_json'];
/** OpenAI's limit on an upload. */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

/**
 * Reads the multipart/form-data body with the platform's own parser (undici's, behind `Response.formData()`), as a
 * real API would not trust a hand-rolled one; each problem names the field, as OpenAI's 400s do.
 */
export async function parseTranscriptionRequest(body: Buffer, contentType: string | undefined): Promise<Parsed<TranscriptionRequest>> {
  if (!contentType?.toLowerCase().startsWith('multipart/form-data')) return { ok: false, param: null, message: 'Content-Type must be multipart/form-data' };
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  } catch {
    return { ok: false, param: null, message: 'the multipart/form-data body could not be parsed' };
  }
  const file = form.get('file');
  if (file === null || typeof file === 'string') return { ok: false, param: 'file', message: "'file' is required and must be a file upload" };
  const model = form.get('model');
  if (typeof model !== 'string' || model === '') return { ok: false, param: 'model', message: "'model' is required" };
  const prompt = form.get('prompt') ?? '';
  if (typeof prompt !== 'string') return { ok: false, param: 'prompt', message: "'prompt' must be text" };
  const responseFormat = form.get('response_format') ?? 'json';
  if (typeof responseFormat !== 'string' || !RESPONSE_FORMATS.includes(responseFormat))
    return { ok: false, param: 'response_format', message: `'response_format' must be one of ${RESPONSE_FORMATS.join(', ')}` };
  const bytes = Buffer.from(await file.arrayBuffer());
  if (bytes.length === 0) return { ok: false, param: 'file', message: 'the uploaded file is empty' };
  return { ok: true, value: { file: bytes, model, prompt, responseFormat } };
}

/** The fields of a `POST /v1/audio/speech` this stand-in reads. */
export interface SpeechRequest {
  model: string;
  input: string;
  voice: string;
  format: 'wav' | 'pcm';
}

/** OpenAI's limit on `input`. */
const MAX_INPUT_CHARS = 4096;

export function parseSpeechRequest(body: unknown): Parsed<SpeechRequest> {
  const b = (body ?? {}) as Record<string, unknown>;
  if (typeof b.model !== 'string' || b.model === '') return { ok: false, param: 'model', message: "'model' is required" };
  if (typeof b.input !== 'string' || b.input.trim() === '') return { ok: false, param: 'input', message: "'input' is required" };
  if (b.input.length > MAX_INPUT_CHARS) return { ok: false, param: 'input', message: `'input' is longer than ${MAX_INPUT_CHARS} characters` };
  if (typeof b.voice !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(b.voice)) return { ok: false, param: 'voice', message: "'voice' is required" };
  const format = b.response_format ?? 'mp3';
  // OpenAI's default is mp3; the stand-in renders only the formats a phone line needs no decoder for.
  if (format !== 'wav' && format !== 'pcm')
    return { ok: false, param: 'response_format', message: "the simulator renders only response_format 'wav' or 'pcm'" };
  return { ok: true, value: { model: b.model, input: b.input, voice: b.voice, format } };
}
