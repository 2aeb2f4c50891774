import { isLoud } from './speech-capture';

export type AnsweredBy = 'human' | 'machine' | 'unknown';

/** Tuning from speech timing (docs/voice.md#machine-detection), in 20 ms frames. */
const MACHINE_SPEECH_FRAMES = 125; // 2.5 s of talk without a pause: a recorded greeting
const PAUSE_FRAMES = 20; // 400 ms of silence ends a phrase
const HUMAN_SILENCE_FRAMES = 40; // a short "hello?" followed by 800 ms of waiting
const DECIDE_WITHIN_FRAMES = 200; // 4 s: beyond this nobody spoke, or not clearly

/**
 * Classifies the party that answered from the first seconds of its audio: a person says something short and waits;
 * a voicemail greeting talks on without a pause. Feed it every callee frame from the answer; it decides once.
 */
export function createAnsweringMachineDetector(onDecision: (answeredBy: AnsweredBy) => void) {
  let frames = 0;
  let phraseFrames = 0;
  let quietRun = 0;
  let heardSpeech = false;
  let decided = false;
  const decide = (answeredBy: AnsweredBy) => {
    decided = true;
    onDecision(answeredBy);
  };
  return (frame: Buffer): void => {
    if (decided) return;
    frames += 1;
    if (isLoud(frame)) {
      heardSpeech = true;
      quietRun = 0;
      phraseFrames += 1;
      if (phraseFrames >= MACHINE_SPEECH_FRAMES) return decide('machine');
    } else {
      quietRun += 1;
      if (quietRun >= PAUSE_FRAMES) phraseFrames = 0;
      if (heardSpeech && quietRun >= HUMAN_SILENCE_FRAMES) return decide('human');
    }
    if (frames >= DECIDE_WITHIN_FRAMES) decide(heardSpeech ? 'human' : 'unknown');
  };
}

/** Resolves once the greeting is over: 1 s of silence (after the beep), so a message lands on the recording. */
export function createGreetingEndDetector(onEnd: () => void) {
  let quietRun = 0;
  let ended = false;
  return (frame: Buffer): void => {
    if (ended) return;
    quietRun = isLoud(frame) ? 0 : quietRun + 1;
    if (quietRun >= 50) {
      ended = true;
      onEnd();
    }
  };
}
