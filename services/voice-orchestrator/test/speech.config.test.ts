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

  it('reads the remote providers, and hides their keys from the start-up log', () => {
    const { config, problems } = read({
      VOICE_TTS: 'https://api.openai.com/',
      VOICE_TTS_API_KEY: 'sk-secret',
      VOICE_STT: 'http://127.0.0.1:9000',
    });
    expect(problems).toEqual([]);
    expect(config.tts).toEqual({
      provider: 'openai',
      voice: 'alloy',
      cacheEntries: 500,
      remote: { baseUrl: 'https://api.openai.com', apiKey: 'sk-secret', model: 'tts-1', timeoutMs: 10_000, responseFormat: 'wav' },
    });
    expect(config.stt.remote).toEqual({ baseUrl: 'http://127.0.0.1:9000', apiKey: undefined, model: 'whisper-1', timeoutMs: 10_000 });
    expect(JSON.stringify(describeSpeechConfig(config))).not.toContain('sk-secret');
  });

  it('names every bad variable', () => {
    const { problems } = read({ VOICE_TTS: 'polly', VOICE_STT: 'ftp://x' });
    expect(problems).toEqual([
      expect.stringContaining('VOICE_TTS must be flite, espeak or the http(s) URL of an OpenAI-compatible server, got "polly"'),
      expect.stringContaining('VOICE_STT must be pocketsphinx or the http(s) URL'),
    ]);
  });

  it("matches a remote recognizer's punctuated sentence against the branches as the local words are", () => {
    expect(matchPhrase('I want to speak to Sales.', ['support', 'sales'])).toBe(1);
    expect(matchPhrase('sales support', ['talk to sales', 'support'])).toBe(1);
    expect(matchPhrase('Billing, please!', ['sales', 'support'])).toBe(-1);
  });
});
