import { decodeMulaw } from '@switchboard/telephony';

/** Mean absolute amplitude above which a 20 ms frame counts as speech. */
const SPEECH_LEVEL = 300;
/** Frames of speech that start an utterance (100 ms), and of silence that end it (700 ms). */
const START_FRAMES = 5;
const END_FRAMES = 35;
/** The end-of-speech rule in milliseconds: how long after the callee's last loud frame an utterance is closed. */
export const END_OF_SPEECH_MS = END_FRAMES * 20;

export function isLoud(frame: Buffer): boolean {
  const pcm = decodeMulaw(frame);
  let sum = 0;
  for (const s of pcm) sum += Math.abs(s);
  return sum / pcm.length > SPEECH_LEVEL;
}

/**
 * One utterance of the callee by energy: it starts after 100 ms of speech (that moment is reported, for barge-in)
 * and ends after 700 ms of silence or at `maxFrames`. The audio kept starts a little before the speech did.
 */
export function createUtteranceDetector(opts: { maxFrames: number; onSpeechStart: () => void; onUtterance: (mulaw: Buffer) => void }) {
  const frames: Buffer[] = [];
  let loudRun = 0;
  let quietRun = 0;
  let speaking = false;
  let done = false;
  return (frame: Buffer): void => {
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
    if (quietRun >= END_FRAMES || frames.length >= opts.maxFrames) {
      done = true;
      opts.onUtterance(Buffer.concat(frames));
    }
  };
}
