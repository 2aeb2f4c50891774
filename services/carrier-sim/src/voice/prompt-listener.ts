import { decodeMulaw } from '@switchboard/telephony';

/** Mean absolute amplitude above which a 20 ms frame counts as speech (flite speech is far above, line silence far below). */
const SPEECH_LEVEL = 300;
/** Frames of speech that make a prompt, and of silence after it that end it. */
const SPEECH_FRAMES = 5;
const SILENCE_FRAMES = 50;

function isSpeech(frame: Buffer): boolean {
  const pcm = decodeMulaw(frame);
  let sum = 0;
  for (const s of pcm) sum += Math.abs(s);
  return sum / pcm.length > SPEECH_LEVEL;
}

/** Calls `onOnset` once, when the agent's first speech begins (100 ms of it): a callee who talks over the agent. */
export function createSpeechOnsetListener(onOnset: () => void) {
  let speechRun = 0;
  let heard = false;
  return (frame: Buffer): void => {
    if (heard) return;
    speechRun = isSpeech(frame) ? speechRun + 1 : 0;
    if (speechRun < SPEECH_FRAMES) return;
    heard = true;
    onOnset();
  };
}

/**
 * Hears the agent's prompts on the inbound audio: calls `onPromptEnd` each time at least 100 ms of speech is followed
 * by 1 s of silence, which is when a person would answer a question.
 */
export function createPromptListener(onPromptEnd: () => void) {
  let speechRun = 0;
  let silenceRun = 0;
  let inPrompt = false;
  return (frame: Buffer): void => {
    if (isSpeech(frame)) {
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
