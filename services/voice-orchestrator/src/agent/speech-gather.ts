import type { AgentMedia } from './agent-media';
import { createUtteranceDetector } from './speech-capture';

/** What a speech gather heard: the utterance's audio, or null (no speech within the timeout, or the call ended). */
export interface SpeechGather {
  readonly utterance: Promise<Buffer | null>;
  /** Stops listening (a digit won in a `both` gather); the utterance resolves null. */
  cancel(): void;
}

/**
 * Listens for one utterance (docs/voice.md#speech-input). Speech while the prompt plays stops the prompt at once
 * (barge-in). The no-input timeout starts when the prompt has finished playing.
 */
export function gatherSpeech(media: AgentMedia, opts: { timeoutMs: number; maxSpeechMs: number }): SpeechGather {
  let finish!: (audio: Buffer | null) => void;
  const utterance = new Promise<Buffer | null>((resolve) => (finish = resolve));
  let timer: NodeJS.Timeout | undefined;
  let speaking = false;
  const detector = createUtteranceDetector({
    maxFrames: Math.ceil(opts.maxSpeechMs / 20),
    onSpeechStart: () => {
      speaking = true;
      clearTimeout(timer);
      if (media.queuedFrames > 0) media.clearPlayback();
    },
    onUtterance: (audio) => finish(audio),
  });
  const stop = media.onAudio(detector);
  void media.drained().then(() => {
    if (!speaking) timer = setTimeout(() => finish(null), opts.timeoutMs);
  });
  void media.ended.then(() => finish(null));
  void utterance.then(() => {
    clearTimeout(timer);
    stop();
  });
  return { utterance, cancel: () => finish(null) };
}
