import { EnvReader } from '@switchboard/runtime';
import { matchPhrase } from '../src/speech/pocketsphinx-stt';
import { describeSpeechConfig, readSpeechConfig } from '../src/speech/speech.config';

const read = (env: Record<string, string>) => {
  const r = new EnvReader(env);
  return { config: readSpeechConfig(r), problems: r.problems };
};

describe('speech provider config', () => {
  it('defaults to flite and pocketsphinx, with a default voice that follows the provider', () => {
    expect(read({}).config).toEqual({
      tts: { provider: 'flite', voice: 'slt', cacheEntries: 500, remote: undefined },
      stt: { provider: 'pocketsphinx', remote: undefined },
    });
    expect(read({ VOICE_TTS: 'espeak' }).config.tts.voice).toBe('en-us');
  });

  it('reads a local voice after a colon', () => {
    expect(read({ VOICE_TTS: 'flite:kal' }).config.tts).toMatchObject({ provider: 'flite', voice: 'kal', remote: undefined });
    expect(read({ VOICE_TTS: 'espeak:en-gb+f3' }).config.tts).toMatchObject({ provider: 'espeak', voice: 'en-gb+f3' });
  });

  it('reads each remote provider as one URI, the key its password, and hides the key from the start-up log', () => {
    const { config, problems } = read({
      VOICE_TTS: 'https://:sk-se%2Fcret@api.openai.com/?model=tts-1-hd&voice=nova',
      VOICE_STT: 'http://127.0.0.1:9000',
    });
    expect(problems).toEqual([]);
    expect(config.tts).toEqual({
      provider: 'openai',
      voice: 'nova',
      cacheEntries: 500,
      remote: { baseUrl: 'https://api.openai.com', apiKey: 'sk-se/cret', model: 'tts-1-hd', timeoutMs: 10_000, responseFormat: 'wav' },
    });
    expect(config.stt).toEqual({
      provider: 'openai',
      remote: { baseUrl: 'http://127.0.0.1:9000', apiKey: undefined, model: 'whisper-1', timeoutMs: 10_000 },
    });
    expect(JSON.stringify(describeSpeechConfig(config))).not.toContain('se/cret');
  });

  it('defaults a remote TTS to tts-1 and alloy, keeps a path prefix, and reads the STT model', () => {
    const { config } = read({ VOICE_TTS: 'http://speech.internal:8000/openai/', VOICE_STT: 'https://:k@api.openai.com?model=whisper-2' });
    expect(config.tts).toMatchObject({ voice: 'alloy', remote: { baseUrl: 'http://speech.internal:8000/openai', apiKey: undefined, model: 'tts-1' } });
    expect(config.stt.remote).toMatchObject({ baseUrl: 'https://api.openai.com', apiKey: 'k', model: 'whisper-2' });
  });

  it('names every bad variable, without quoting a key', () => {
    const { problems } = read({ VOICE_TTS: 'polly', VOICE_STT: 'ftp://x' });
    expect(problems).toEqual([
      expect.stringMatching(/^VOICE_TTS is invalid: "polly" is neither flite, espeak nor an http\(s\) URL \(flite\[:voice\], espeak\[:voice\] or http/),
      expect.stringMatching(/^VOICE_STT is invalid: "ftp:\/\/x" is neither pocketsphinx nor an http\(s\) URL/),
    ]);
    const refused = (env: Record<string, string>) => read(env).problems.join('\n');
    expect(refused({ VOICE_TTS: 'https://:sk-secret@api.openai.com?model=tts-1&vioce=nova' })).toMatch(
      /VOICE_TTS is invalid: unknown query parameter "vioce" \(known: model, voice\)/,
    );
    expect(refused({ VOICE_STT: 'https://:sk-secret@api.openai.com?voice=nova' })).toMatch(
      /VOICE_STT is invalid: unknown query parameter "voice" \(known: model\)/,
    );
    expect(refused({ VOICE_TTS: 'https://sk-secret@api.openai.com' })).toMatch(/VOICE_TTS is invalid: the API key goes in the password/);
    expect(refused({ VOICE_TTS: 'https://:sk-secret@api.openai.com?model=a&model=b' })).toMatch(/"model" is given twice/);
    expect(refused({ VOICE_TTS: 'https://:sk-secret@api.openai.com?model=' })).toMatch(/"model" is empty/);
    expect(refused({ VOICE_TTS: 'https://:sk-secret@' })).toMatch(/VOICE_TTS is invalid: "https:\/\/:\*\*\*@" is not a URL/);
    expect(refused({ VOICE_TTS: 'flite:' })).toMatch(/VOICE_TTS is invalid: no voice after "flite:"/);
    for (const value of ['https://:sk-secret@api.openai.com?vioce=a', 'https://sk-secret@h', 'https://:sk-secret@', 'https://:sk-secret@h#x']) {
      expect(refused({ VOICE_TTS: value })).not.toContain('sk-secret');
    }
  });

  it("matches a remote recognizer's punctuated sentence against the branches as the local words are", () => {
    expect(matchPhrase('I want to speak to Sales.', ['support', 'sales'])).toBe(1);
    expect(matchPhrase('sales support', ['talk to sales', 'support'])).toBe(1);
    expect(matchPhrase('Billing, please!', ['sales', 'support'])).toBe(-1);
  });
});
