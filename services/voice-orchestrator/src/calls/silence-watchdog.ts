import type { CallLeg } from '@switchboard/telephony';
import { isLoud } from '../agent/speech-capture';

/** Used when the agent's flow names no `silence_timeout_seconds` (docs/voice-agents.md#silence-timeout). */
export const DEFAULT_SILENCE_TIMEOUT_SECONDS = 30;

/** How often the watchdog looks; the timeout is therefore exact to within this. */
const CHECK_INTERVAL_MS = 250;

/**
 * Hangs the leg up with `silence_timeout` once the callee has given no sign of life (no speech energy, no digit)
 * for `timeoutMs` while the agent was not speaking (docs/voice-agents.md#silence-timeout). Wall-clock based rather than
 * counting received frames, because a callee that sends no RTP while silent (DTX) is silent too. While `paused()`
 * is true (a bridged transfer's second leg ringing: the callee is waiting, not silent) the count does not run, and
 * it starts again from when the pause ends. Returns a stop function; it stops by itself when the leg ends.
 */
export function watchForSilence(leg: CallLeg, timeoutMs: number, clock: () => number = Date.now, paused: () => boolean = () => false): () => void {
  let lastSignOfLife = clock();
  const heard = (frame: Buffer) => {
    if (isLoud(frame)) lastSignOfLife = clock();
  };
  const pressed = () => {
    lastSignOfLife = clock();
  };
  const timer = setInterval(() => {
    // The agent speaking is not the callee being silent: the silence counts from the end of the prompt.
    if (leg.queuedFrames > 0 || paused()) lastSignOfLife = clock();
    else if (clock() - lastSignOfLife >= timeoutMs) {
      stop();
      void leg.hangup('silence_timeout');
    }
  }, CHECK_INTERVAL_MS);
  const stop = () => {
    clearInterval(timer);
    leg.off('audio', heard);
    leg.off('dtmf', pressed);
  };
  leg.on('audio', heard);
  leg.on('dtmf', pressed);
  void leg.ended.then(stop);
  return stop;
}
