import { decodeMulaw } from '@switchboard/telephony';

/** Mean absolute amplitude above which a 20 ms frame counts as speech (flite speech is far above, line silence far below). */
const SPEECH_LEVEL = 300;
/** Frames of speech that make a prompt, and of silence after it that end it. */
const SPEECH_FRAMES = 5;
const SILENCE_FRAMES = 30;

/**
 * Hears the agent's prompts on the inbound audio: calls `onPromptEnd` each time at least 100 ms of speech is followed
 * by 600 ms of silence, which is when a person would answer a question.
 */
export function createPromptListener(onPromptEnd: () => void) {
  let speechRun = 0;
  let silenceRun = 0;
  let inPrompt = false;
  return (frame: Buffer): void => {
    const pcm = decodeMulaw(frame);
    let sum = 0;
    for (const s of pcm) sum += Math.abs(s);
    const loud = sum / pcm.length > SPEECH_LEVEL;
    if (loud) {
      speechRun += 1;
      silenceRun = 0;
      if (speechRun >= SPEECH_FRAMES) inPrompt = true;
      return;
    }
    speechRun = 0;
    silenceRun += 1;
    if (inPrompt && silenceRun >= SILENCE_FRAMES) {
      inPrompt = false;
      onPromptEnd();
    }
  };
}
