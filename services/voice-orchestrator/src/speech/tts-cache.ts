import { trimLeadingSilence } from './leading-silence';

/** Text to 8 kHz G.711 μ-law, ready for `CallLeg.play` (docs/voice-agents.md#speech-providers). */
export interface TextToSpeech {
  /** Rejects when the voice name is malformed or the engine fails: the flow's say fails (docs/voice-agents.md#speech-providers). */
  synthesize(text: string, voice?: string): Promise<Buffer>;
}

/**
 * Wraps a synthesizer with a cache keyed by (provider, voice, text): prompts repeat across calls, and synthesis,
 * local or remote, costs more than a turn's latency budget. The most recently used entries are kept; a failed
 * synthesis is not cached, so the next call tries again.
 */
export function createCachedTts(opts: {
  provider: string;
  defaultVoice: string;
  cacheEntries: number;
  /** Voice names this provider accepts; anything else is refused before it reaches a command line or a request. */
  voicePattern: RegExp;
  synthesize: (text: string, voice: string) => Promise<Buffer>;
}): TextToSpeech {
  const cache = new Map<string, Promise<Buffer>>();
  return {
    synthesize(text, voice = opts.defaultVoice) {
      if (!opts.voicePattern.test(voice)) return Promise.reject(new RangeError(`not a voice name for ${opts.provider}: ${voice}`));
      const key = `${opts.provider}\n${voice}\n${text}`;
      const cached = cache.get(key);
      if (cached) {
        cache.delete(key);
        cache.set(key, cached);
        return cached;
      }
      // Every engine's lead-in silence is dead air in the turn (docs/performance/voice.md#speech-turn).
      const made = opts.synthesize(text, voice).then(trimLeadingSilence);
      if (opts.cacheEntries > 0) {
        cache.set(key, made);
        made.catch(() => cache.delete(key));
        while (cache.size > opts.cacheEntries) cache.delete(cache.keys().next().value as string);
      }
      return made;
    },
  };
}
