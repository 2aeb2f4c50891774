import { promptVocabulary } from '../src/speech/sim-speech.engines';
import { parseSpeechRequest, parseTranscriptionRequest } from '../src/speech/transcription-request.parser';

/** A multipart body as a client's FormData puts it on the wire. */
async function multipart(fields: Record<string, string | Blob>): Promise<{ body: Buffer; type: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const request = new Request('http://sim.invalid/', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), type: request.headers.get('content-type')! };
}
const wav = new Blob([Buffer.from('RIFF....WAVEfmt ')], { type: 'audio/wav' });

describe('the audio stand-ins read OpenAI requests', () => {
  it('reads a transcription upload: file, model, prompt and response_format', async () => {
    const { body, type } = await multipart({ file: wav, model: 'whisper-1', prompt: 'sales, support', response_format: 'verbose_json' });
    const parsed = await parseTranscriptionRequest(body, type);
    expect(parsed).toEqual({
      ok: true,
      value: { file: Buffer.from('RIFF....WAVEfmt '), model: 'whisper-1', prompt: 'sales, support', responseFormat: 'verbose_json' },
    });
  });

  it('defaults the prompt to empty and the format to json', async () => {
    const { body, type } = await multipart({ file: wav, model: 'whisper-1' });
    expect(await parseTranscriptionRequest(body, type)).toMatchObject({ ok: true, value: { prompt: '', responseFormat: 'json' } });
  });

  it('names the field of a bad transcription request', async () => {
    const noFile = await multipart({ file: 'just text', model: 'whisper-1' });
    expect(await parseTranscriptionRequest(noFile.body, noFile.type)).toMatchObject({ ok: false, param: 'file' });
    const noModel = await multipart({ file: wav });
    expect(await parseTranscriptionRequest(noModel.body, noModel.type)).toMatchObject({ ok: false, param: 'model' });
    const srt = await multipart({ file: wav, model: 'whisper-1', response_format: 'srt' });
    expect(await parseTranscriptionRequest(srt.body, srt.type)).toMatchObject({ ok: false, param: 'response_format' });
    const empty = await multipart({ file: new Blob([]), model: 'whisper-1' });
    expect(await parseTranscriptionRequest(empty.body, empty.type)).toMatchObject({ ok: false, param: 'file' });
    expect(await parseTranscriptionRequest(Buffer.from('{"model":"x"}'), 'application/json')).toMatchObject({
      ok: false,
      message: expect.stringContaining('multipart/form-data'),
    });
    expect(await parseTranscriptionRequest(Buffer.from('garbage without parts'), 'multipart/form-data; boundary=zzz')).toMatchObject({
      ok: false,
      message: expect.stringContaining('could not be parsed'),
    });
  });

  it('reads a speech request and refuses formats it cannot render or a missing input', () => {
    expect(parseSpeechRequest({ model: 'tts-1', input: 'Hello.', voice: 'alloy', response_format: 'pcm' })).toEqual({
      ok: true,
      value: { model: 'tts-1', input: 'Hello.', voice: 'alloy', format: 'pcm' },
    });
    expect(parseSpeechRequest({ model: 'tts-1', input: 'Hello.', voice: 'alloy' })).toMatchObject({ ok: false, param: 'response_format' });
    expect(parseSpeechRequest({ model: 'tts-1', input: '  ', voice: 'alloy', response_format: 'wav' })).toMatchObject({ ok: false, param: 'input' });
    expect(parseSpeechRequest({ model: 'tts-1', input: 'x'.repeat(4097), voice: 'alloy', response_format: 'wav' })).toMatchObject({
      ok: false,
      param: 'input',
    });
    expect(parseSpeechRequest({ input: 'Hi', voice: 'alloy', response_format: 'wav' })).toMatchObject({ ok: false, param: 'model' });
    expect(parseSpeechRequest(null)).toMatchObject({ ok: false, param: 'model' });
    expect(parseSpeechRequest({ model: 'tts-1', input: 'Hi', voice: 'a b', response_format: 'wav' })).toMatchObject({ ok: false, param: 'voice' });
  });

  it("builds the grammar's vocabulary from the prompt's known words", () => {
    const known = (w: string) => w !== 'xyzzy';
    expect(promptVocabulary('Sales, support, sales; xyzzy!', known)).toEqual(['sales', 'support']);
    expect(promptVocabulary('', known)).toEqual([]);
  });
});
