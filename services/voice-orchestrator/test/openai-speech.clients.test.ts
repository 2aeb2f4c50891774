import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeMulaw } from '@switchboard/telephony';
import { encodeWav } from '../src/recording/stereo-wav';
import { createOpenAiRecognizer, transcriptionForm, transcriptionText } from '../src/speech/openai-stt';
import { createOpenAiTts, decodeSpeech } from '../src/speech/openai-tts';
import { parseWav } from '../src/speech/speech-audio.codec';

interface Seen {
  method?: string;
  url?: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

// A local HTTP server stands in for the provider, so the tests see the bytes our clients put on the wire.
let server: Server;
let baseUrl: string;
let seen: Seen[] = [];
let answer: (res: ServerResponse, seen: Seen) => void = (res) => res.end();

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s = { method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks) };
      seen.push(s);
      answer(res, s);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  seen = [];
});

const endpoint = (model: string, timeoutMs = 5_000) => ({ baseUrl, apiKey: 'sk-test-key', model, timeoutMs });
const pcm24k = (samples: number) => {
  const body = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i += 1) body.writeInt16LE(Math.round(8000 * Math.sin(i / 10)), i * 2);
  return body;
};

describe('OpenAI-compatible speech (TTS) client', () => {
  it('posts { model, input, voice, response_format } with the key as Bearer, and caches by voice and text', async () => {
    answer = (res) => res.setHeader('content-type', 'audio/pcm').end(pcm24k(2_400));
    const tts = createOpenAiTts({ endpoint: endpoint('tts-1'), responseFormat: 'pcm', defaultVoice: 'alloy', cacheEntries: 10 });
    const audio = await tts.synthesize('Hello there.');
    expect(audio.length).toBe(800); // 100 ms at 8 kHz μ-law
    await tts.synthesize('Hello there.');
    await tts.synthesize('Hello there.', 'nova');
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: '/v1/audio/speech',
      headers: expect.objectContaining({ authorization: 'Bearer sk-test-key', 'content-type': 'application/json' }),
    });
    expect(JSON.parse(seen[0].body.toString())).toEqual({ model: 'tts-1', input: 'Hello there.', voice: 'alloy', response_format: 'pcm' });
    expect(JSON.parse(seen[1].body.toString()).voice).toBe('nova');
  });

  it("rejects with the provider's error message on a non-2xx, and does not cache the failure", async () => {
    answer = (res) =>
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Invalid voice', type: 'invalid_request_error' } }));
    const tts = createOpenAiTts({ endpoint: endpoint('tts-1'), responseFormat: 'wav', defaultVoice: 'alloy', cacheEntries: 10 });
    await expect(tts.synthesize('Hi.')).rejects.toThrow('speech API answered HTTP 400: Invalid voice');
    answer = (res) => res.end(encodeWav(new Int16Array(1_600), 1, 16_000));
    await expect(tts.synthesize('Hi.')).resolves.toHaveLength(800);
  });

  it('gives up at the hard timeout', async () => {
    answer = () => undefined; // never answers
    const tts = createOpenAiTts({ endpoint: endpoint('tts-1', 300), responseFormat: 'wav', defaultVoice: 'alloy', cacheEntries: 0 });
    await expect(tts.synthesize('Anyone?')).rejects.toThrow(/abort|timeout/i);
  });

  it('decodes WAV and PCM answers to line audio and refuses an empty one', () => {
    expect(decodeSpeech(encodeWav(new Int16Array(16_000), 1, 16_000), 'wav')).toHaveLength(8_000);
    expect(decodeSpeech(pcm24k(24_000), 'pcm')).toHaveLength(8_000);
    expect(() => decodeSpeech(Buffer.alloc(0), 'pcm')).toThrow('no audio');
    expect(() => decodeSpeech(Buffer.from('{"error":{}}'), 'wav')).toThrow('not a RIFF WAVE file');
  });
});

describe('OpenAI-compatible transcription (STT) client', () => {
  const utterance = encodeMulaw(new Int16Array(4_000).fill(1200));

  it('builds a multipart form a standard parser reads: the WAV file, the model, the phrases as prompt, json', async () => {
    const request = new Request('http://provider.invalid/', { method: 'POST', body: transcriptionForm(utterance, 'whisper-1', ['sales', ' support ', '']) });
    expect(request.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    const form = await new Response(await request.arrayBuffer(), { headers: { 'content-type': request.headers.get('content-type')! } }).formData();
    expect([form.get('model'), form.get('prompt'), form.get('response_format')]).toEqual(['whisper-1', 'sales, support', 'json']);
    const file = form.get('file') as File;
    expect(file.name).toBe('utterance.wav');
    const wav = parseWav(Buffer.from(await file.arrayBuffer()));
    expect([wav.sampleRate, wav.samples.length]).toEqual([8_000, 4_000]);
    expect(new Request('http://x/', { method: 'POST', body: transcriptionForm(utterance, 'm', []) }).body).not.toBeNull();
  });

  it('posts to /v1/audio/transcriptions with the key as Bearer and returns the text as heard', async () => {
    answer = (res) => res.setHeader('content-type', 'application/json').end(JSON.stringify({ text: ' I want to speak to sales. ' }));
    const heard = await createOpenAiRecognizer(endpoint('whisper-1')).recognize(utterance, ['sales', 'support']);
    expect(heard).toBe('I want to speak to sales.');
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: '/v1/audio/transcriptions',
      headers: expect.objectContaining({ authorization: 'Bearer sk-test-key' }),
    });
    expect(seen[0].headers['content-type']).toMatch(/^multipart\/form-data/);
    expect(seen[0].body.includes(Buffer.from('name="prompt"\r\n\r\nsales, support\r\n'))).toBe(true);
  });

  it('sends nothing for an empty utterance, and rejects a 5xx or an answer without text', async () => {
    await expect(createOpenAiRecognizer(endpoint('whisper-1')).recognize(Buffer.alloc(0), ['sales'])).resolves.toBe('');
    expect(seen).toHaveLength(0);
    answer = (res) => res.writeHead(500).end('upstream exploded');
    await expect(createOpenAiRecognizer(endpoint('whisper-1')).recognize(utterance, ['sales'])).rejects.toThrow('transcription API answered HTTP 500');
    expect(() => transcriptionText({ transcript: 'x' })).toThrow('without a text');
  });
});
