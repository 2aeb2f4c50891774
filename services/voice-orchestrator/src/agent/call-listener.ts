import type { AgentMedia } from './agent-media';
import { createUtteranceDetector, isLoud, START_FRAMES } from './speech-capture';

/**
 * What the agent plays: a `prompt` is a gather's question (any speech answers it, so it stops at once), a `reply`
 * is a `say` or an `llm` sentence (a short backchannel does not stop it). docs/voice-agents.md#full-duplex-listening.
 */
export interface AgentAudio {
  kind: 'prompt' | 'reply';
  interruptible: boolean;
  /** Called once if the callee cuts this audio short, before all of it was heard. */
  onInterrupted?: () => void;
}

/** One utterance handed to a gather or an `llm` turn: already heard (pending) or the next one. */
export interface UtteranceRequest {
  readonly utterance: Promise<Buffer | null>;
  /** The words, when recognition could start at the callee's last pause; undefined otherwise. */
  recognizedEarly(): Promise<string> | undefined;
  /** Stops waiting (a digit won in a `both` gather); the utterance resolves null. */
  cancel(): void;
  /** What closed the utterance: its silence, a phrase it completed, or its length (docs/voice-agents.md#end-of-turn). */
  endedBy(): UtteranceEnd | undefined;
}

export type UtteranceEnd = 'silence' | 'phrase' | 'length';

export interface CallListener {
  /** Plays agent audio under the barge-in rule. */
  play(mulaw: Buffer, audio: AgentAudio): void;
  /** The callee has said something not yet taken, or is saying it now. */
  readonly hasInput: boolean;
  /** Counts barge-ins: a reply still being produced checks it to stop speaking once interrupted. */
  readonly interruptions: number;
  /**
   * The next utterance: what was said since the last one was taken (joined), else the one being said, else the
   * next. Null when nothing starts within `timeoutMs` of the agent's audio ending, or at the call's end.
   */
  takeUtterance(opts: { timeoutMs: number; recognize?: (audio: Buffer) => Promise<string>; completes?: (words: string) => boolean }): UtteranceRequest;
  /** Stops the agent's audio now, whatever its kind (a digit pressed during a prompt). */
  interrupt(): void;
  /** Stops listening until `resume()` (a bridged transfer: the parties talk to each other, not to the agent). */
  pause(): void;
  resume(): void;
  stop(): void;
}

/**
 * The most unanswered speech kept for the next turn, oldest dropped first: as long as one utterance may be, so a
 * callee who talks through a long keypad menu cannot grow the call's memory, and a turn gets what it can recognise.
 */
const MAX_PENDING_FRAMES = 750;

/**
 * Listens from the answer to the hangup (docs/voice-agents.md#full-duplex-listening). Speech while agent audio
 * plays stops it (barge-in) at once during a prompt, and during a reply once the callee has spoken
 * `backchannelMs`; a node with `interruptible: false` is never stopped. Speech that ends shorter than that over a
 * reply that kept playing is a backchannel and is not input; everything else said is kept for the next turn.
 */
export function createCallListener(media: AgentMedia, opts: { backchannelMs: number; maxSpeechMs: number; endOfSpeechMs?: number }): CallListener {
  const backchannelFrames = Math.max(START_FRAMES, Math.ceil(opts.backchannelMs / 20));
  // Agent audio queued and not yet played, oldest first, with its frame count.
  let playing: Array<{ frames: number; audio: AgentAudio }> = [];
  let pending: Buffer[] = [];
  let interruptions = 0;
  let paused = false;
  // The utterance being said: its loud frames, and what played when it started.
  let current: { loudFrames: number; overAudio: AgentAudio | undefined; interrupted: boolean } | undefined;
  let consumer:
    | {
        recognize?: (audio: Buffer) => Promise<string>;
        completes?: (words: string) => boolean;
        deliver: (audio: Buffer, early: Promise<string> | undefined, how: UtteranceEnd) => void;
      }
    | undefined;
  let atLastPause: Promise<string> | undefined;
  // Loud since the last pause was handed to the recogniser: its words no longer end the utterance.
  let spokeSincePause = false;
  // Set by `endNow` after a completed phrase, read as the utterance closes.
  let endedByPhrase = false;
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());

  /** The agent audio being heard now: the oldest entry that still has frames in the queue. */
  const nowPlaying = (): AgentAudio | undefined => {
    let remaining = media.queuedFrames;
    const still: typeof playing = [];
    for (let i = playing.length - 1; i >= 0 && remaining > 0; i -= 1) {
      still.unshift(playing[i]);
      remaining -= playing[i].frames;
    }
    playing = still;
    return playing[0]?.audio;
  };

  const bargeIn = () => {
    const cut = playing;
    playing = [];
    media.clearPlayback();
    interruptions += 1;
    for (const entry of new Set(cut.map((c) => c.audio))) entry.onInterrupted?.();
  };

  const newDetector = () =>
    createUtteranceDetector({
      maxFrames: Math.ceil(opts.maxSpeechMs / 20),
      endFrames: opts.endOfSpeechMs === undefined ? undefined : Math.ceil(opts.endOfSpeechMs / 20),
      onSpeechStart: () => {
        // The frame that completes the start is counted below, with every later loud frame.
        current = { loudFrames: START_FRAMES - 1, overAudio: nowPlaying(), interrupted: false };
        notify();
      },
      onPause: (audioSoFar) => {
        if (!consumer?.recognize || pending.length > 0) return;
        const asked = consumer.recognize(audioSoFar);
        atLastPause = asked;
        spokeSincePause = false;
        // A pause the callee talks on after is recognised for nothing; its failure is nobody's concern.
        asked.catch(() => undefined);
        // The words so far complete a branch: the turn ends now rather than after the rest of the silence.
        const completes = consumer.completes;
        if (completes) {
          void asked.then(
            (words) => {
              if (atLastPause !== asked || spokeSincePause || current === undefined || !completes(words)) return;
              endedByPhrase = true;
              detector.endNow();
            },
            () => undefined,
          );
        }
      },
      onUtterance: (audio, endedBySilence) => {
        const heard = current;
        current = undefined;
        detector = newDetector();
        const early = endedBySilence && pending.length === 0 ? atLastPause : undefined;
        const how: UtteranceEnd = endedByPhrase ? 'phrase' : endedBySilence ? 'silence' : 'length';
        atLastPause = undefined;
        endedByPhrase = false;
        // Short, over a reply that went on playing: an "uh-huh" to the agent, not an answer.
        const backchannel = heard?.overAudio?.kind === 'reply' && !heard.interrupted && heard.loudFrames < backchannelFrames;
        if (!backchannel) {
          pending.push(audio);
          while (pending.length > 1 && pending.reduce((frames, p) => frames + p.length / 160, 0) > MAX_PENDING_FRAMES) pending.shift();
          if (consumer) {
            const joined = Buffer.concat(pending);
            pending = [];
            consumer.deliver(joined, early, how);
          }
        }
        notify();
      },
    });
  let detector = newDetector();

  const stopAudio = media.onAudio((frame) => {
    if (paused) return;
    detector(frame);
    if (!current) return;
    if (isLoud(frame)) {
      current.loudFrames += 1;
      spokeSincePause = true;
    }
    if (media.queuedFrames === 0) return;
    const heard = nowPlaying();
    if (!heard?.interruptible) return;
    // A prompt is a question: any speech answers it. A reply gives way once the speech is longer than a backchannel.
    if (heard.kind === 'prompt' || current.loudFrames >= backchannelFrames) {
      current.interrupted = true;
      bargeIn();
    }
  });

  return {
    play(mulaw, audio) {
      playing.push({ frames: Math.ceil(mulaw.length / 160), audio });
      media.play(mulaw);
    },
    get hasInput() {
      return pending.length > 0 || current !== undefined;
    },
    get interruptions() {
      return interruptions;
    },
    takeUtterance({ timeoutMs, recognize, completes }) {
      let finish!: (audio: Buffer | null) => void;
      const utterance = new Promise<Buffer | null>((resolve) => (finish = resolve));
      let early: Promise<string> | undefined;
      let endedBy: UtteranceEnd | undefined;
      let timer: NodeJS.Timeout | undefined;
      const done = (audio: Buffer | null) => {
        clearTimeout(timer);
        listeners.delete(onChange);
        if (consumer === own) consumer = undefined;
        finish(audio);
      };
      const own = {
        recognize,
        completes,
        deliver: (audio: Buffer, heardEarly: Promise<string> | undefined, how: UtteranceEnd) => {
          early = heardEarly;
          endedBy = how;
          done(audio);
        },
      };
      // The no-input timeout runs only while the agent is silent and the callee has not started speaking.
      let generation = 0;
      const onChange = () => {
        clearTimeout(timer);
        const mine = ++generation;
        if (current !== undefined) return;
        void media.drained().then(() => {
          if (mine === generation && consumer === own && current === undefined) timer = setTimeout(() => done(null), timeoutMs);
        });
      };
      if (pending.length > 0) {
        const joined = Buffer.concat(pending);
        pending = [];
        finish(joined);
        return { utterance, recognizedEarly: () => undefined, cancel: () => undefined, endedBy: () => undefined };
      }
      consumer = own;
      listeners.add(onChange);
      onChange();
      void media.ended.then(() => done(null));
      return { utterance, recognizedEarly: () => early, cancel: () => done(null), endedBy: () => endedBy };
    },
    interrupt() {
      if (media.queuedFrames > 0) bargeIn();
    },
    pause() {
      paused = true;
      current = undefined;
      detector = newDetector();
    },
    resume() {
      paused = false;
    },
    stop() {
      stopAudio();
    },
  };
}
