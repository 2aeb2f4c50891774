import { decodeMulawSample } from '@switchboard/telephony';

/** Mean absolute amplitude above which a 20 ms frame counts as speech. */
const SPEECH_LEVEL = 300;
/**
 * Frames of speech that start an utterance (100 ms), and of silence that end it (400 ms): voice agents commonly
 * close a turn after 300 to 500 ms of silence; flite's pauses between words are at most 120 ms, a person's inside
 * a sentence mostly under 300 ms (docs/voice-agents.md#speech-input).
 */
export const START_FRAMES = 5;
const END_FRAMES = 20;
/** Silence after which the audio so far is handed to the recogniser early (160 ms): see `onPause`. */
const PAUSE_FRAMES = 8;
/** The end-of-speech rule in milliseconds: how long after the callee's last loud frame an utterance is closed. */
export const END_OF_SPEECH_MS = END_FRAMES * 20;

/** |linear sample| of each μ-law byte: a frame's level without decoding it into a new array. */
const LEVEL_OF_BYTE = Uint16Array.from({ length: 256 }, (_, byte) => Math.abs(decodeMulawSample(byte)));

export function isLoud(frame: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < frame.length; i++) sum += LEVEL_OF_BYTE[frame[i]];
  return sum / frame.length > SPEECH_LEVEL;
}

/**
 * One utterance of the callee by energy: it starts after 100 ms of speech (that moment is reported, for barge-in)
 * and ends after 400 ms of silence or at `maxFrames`. The audio kept starts a little before the speech did.
 * `onPause` gets the audio so far each time the callee has been quiet for 160 ms, so recognition can start before
 * the end-of-speech rule has decided: if no speech follows, the utterance is that audio plus silence.
 * `onUtterance`'s `endedBySilence` says whether it was (rather than cut at `maxFrames`).
 */
export function createUtteranceDetector(opts: {
  maxFrames: number;
  /** Frames of silence that end an utterance (docs/voice-agents.md#end-of-turn). @defaultValue 20 (400 ms) */
  endFrames?: number;
  onSpeechStart: () => void;
  onPause?: (audioSoFar: Buffer) => void;
  onUtterance: (mulaw: Buffer, endedBySilence: boolean) => void;
}): UtteranceDetector {
  const endFrames = opts.endFrames ?? END_FRAMES;
  const frames: Buffer[] = [];
  let loudRun = 0;
  let quietRun = 0;
  let speaking = false;
  let done = false;
  const feed = (frame: Buffer): void => {
    if (done) return;
    frames.push(frame);
    const loud = isLoud(frame);
    if (!speaking) {
      loudRun = loud ? loudRun + 1 : 0;
      if (frames.length > 25) frames.shift(); // keep 500 ms of lead-in
      if (loudRun >= START_FRAMES) {
        speaking = true;
        opts.onSpeechStart();
      }
      return;
    }
    quietRun = loud ? 0 : quietRun + 1;
    const endedBySilence = quietRun >= endFrames;
    if (endedBySilence || frames.length >= opts.maxFrames) {
      done = true;
      opts.onUtterance(Buffer.concat(frames), endedBySilence);
    } else if (quietRun === PAUSE_FRAMES) opts.onPause?.(Buffer.concat(frames));
  };
  return Object.assign(feed, {
    endNow() {
      if (!speaking || done) return;
      done = true;
      opts.onUtterance(Buffer.concat(frames), true);
    },
  });
}

/** Feeds 20 ms frames; `endNow` closes an utterance in progress at once, as its silence would (a completed phrase). */
export type UtteranceDetector = ((frame: Buffer) => void) & { endNow(): void };
