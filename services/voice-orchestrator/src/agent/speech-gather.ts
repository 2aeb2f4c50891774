import type { AgentMedia } from './agent-media';
import { createUtteranceDetector } from './speech-capture';

/** What a speech gather heard: the utterance's audio, or null (no speech within the timeout, or the call ended). */
export interface SpeechGather {
  readonly utterance: Promise<Buffer | null>;
  /**
   * The words of the utterance when recognition could start at the callee's last pause (the utterance ended by
   * the silence rule, nothing loud after that pause); undefined otherwise, and then the caller recognises it.
   */
  recognizedEarly(): Promise<string> | undefined;
  /** Stops listening (a digit won in a `both` gather); the utterance resolves null. */
  cancel(): void;
}

/**
 * Listens for one utterance (docs/voice-agents.md#speech-input). Speech while the prompt plays stops the prompt at once
 * (barge-in). The no-input timeout starts when the prompt has finished playing. With `recognize`, recognition
 * starts at each pause of the callee, so its result is usually ready when the end-of-speech rule closes the turn.
 */
export function gatherSpeech(media: AgentMedia, opts: { timeoutMs: number; maxSpeechMs: number; recognize?: (audio: Buffer) => Promise<string> }): SpeechGather {
  let finish!: (audio: Buffer | null) => void;
  const utterance = new Promise<Buffer | null>((resolve) => (finish = resolve));
  let timer: NodeJS.Timeout | undefined;
  let speaking = false;
  let atLastPause: Promise<string> | undefined;
  let early: Promise<string> | undefined;
  const detector = createUtteranceDetector({
    maxFrames: Math.ceil(opts.maxSpeechMs / 20),
    onSpeechStart: () => {
      speaking = true;
      clearTimeout(timer);
      if (media.queuedFrames > 0) media.clearPlayback();
    },
    onPause: (audioSoFar) => {
      if (!opts.recognize) return;
      atLastPause = opts.recognize(audioSoFar);
      // A pause the callee talks on after is recognised for nothing; its failure is nobody's concern.
      atLastPause.catch(() => undefined);
    },
    onUtterance: (audio, endedBySilence) => {
      if (endedBySilence) early = atLastPause;
      finish(audio);
    },
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
  return { utterance, recognizedEarly: () => early, cancel: () => finish(null) };
}
