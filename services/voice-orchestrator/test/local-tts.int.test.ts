import { createEspeakTts } from '../src/speech/espeak-tts';
import { createFliteTts } from '../src/speech/flite-tts';
import { createPocketsphinxRecognizer } from '../src/speech/pocketsphinx-stt';

// The local engines as the orchestrator runs them (flite and espeak-ng, then sox), heard back by pocketsphinx.
const PHRASE = 'Press five for billing.';

describe('local TTS engines', () => {
  it.each([
    ['flite', createFliteTts({ defaultVoice: 'slt', cacheEntries: 10 })],
    ['espeak-ng', createEspeakTts({ defaultVoice: 'en-us', cacheEntries: 10 })],
  ])('%s speaks 8 kHz μ-law that the recogniser understands, cached by voice and text', async (_name, tts) => {
    const audio = await tts.synthesize(PHRASE);
    expect(audio.length).toBeGreaterThan(8_000 * 0.8); // more than 0.8 s of speech
    expect(await tts.synthesize(PHRASE)).toBe(audio);
    // The en-us model hears espeak-ng's robotic voice less well than flite's: "billing" is the word both carry.
    const heard = await createPocketsphinxRecognizer().recognize(audio, [PHRASE]);
    expect(heard.split(' ')).toContain('billing');
  });

  it('take a prompt that starts with a dash as text, and refuse a voice name that is not one', async () => {
    const espeak = createEspeakTts({ defaultVoice: 'en-us', cacheEntries: 0 });
    await expect(espeak.synthesize('-v evil --help', 'en-us+f3')).resolves.toBeInstanceOf(Buffer);
    await expect(espeak.synthesize('Hi.', 'en us; rm')).rejects.toThrow('not a voice name for espeak');
    await expect(createFliteTts({ defaultVoice: 'slt', cacheEntries: 0 }).synthesize('-o /tmp/x')).resolves.toBeInstanceOf(Buffer);
  });
});
