import type { CallLeg } from '@switchboard/telephony';
import type { CallRecorder } from '../recording/call-recorder';

/** What the flow engine needs of a call: audio out with barge-in, digits in, and the end of the call. */
export interface AgentMedia {
  play(mulaw: Buffer): void;
  /** Stops the prompt at once (barge-in); the dropped audio is taken off the recording, and `drained()` resolves. */
  clearPlayback(): void;
  /** Resolves when everything queued has been sent, or the call ended. */
  drained(): Promise<void>;
  /** Digits pressed since the last `takeDigits`, in order: typed ahead during a prompt, they are not lost. */
  takeDigits(): string;
  /** Resolves on the next digit; null after `timeoutMs`, when `until` settles first, or at the call's end. */
  nextDigit(timeoutMs: number, until?: Promise<unknown>): Promise<string | null>;
  /** Every 20 ms frame of the callee's audio until the returned function is called. */
  onAudio(listener: (frame: Buffer) => void): () => void;
  /** 20 ms frames still to be played. */
  readonly queuedFrames: number;
  readonly isEnded: boolean;
  readonly ended: Promise<unknown>;
}

export function createLegMedia(leg: CallLeg, recorder: CallRecorder): AgentMedia {
  let buffered = '';
  let waiter: ((digit: string | null) => void) | undefined;
  let isEnded = false;
  // A barge-in drops the queue without the leg reporting a drain: whoever waits for the end of the audio is told here.
  const drainWaiters = new Set<() => void>();
  void leg.ended.then(() => {
    isEnded = true;
    waiter?.(null);
  });
  leg.on('dtmf', (digit) => {
    if (waiter) {
      const resolve = waiter;
      waiter = undefined;
      resolve(digit);
    } else buffered += digit;
  });
  return {
    play(mulaw) {
      recorder.agentAudio(mulaw);
      leg.play(mulaw);
    },
    clearPlayback() {
      recorder.agentDropped(leg.clearPlayback());
      for (const done of [...drainWaiters]) done();
    },
    drained() {
      if (isEnded || leg.queuedFrames === 0) return Promise.resolve();
      return new Promise((resolve) => {
        const done = () => {
          leg.off('playback-drained', done);
          drainWaiters.delete(done);
          resolve();
        };
        leg.on('playback-drained', done);
        drainWaiters.add(done);
        void leg.ended.then(done);
      });
    },
    takeDigits() {
      const digits = buffered;
      buffered = '';
      return digits;
    },
    nextDigit(timeoutMs, until) {
      if (isEnded) return Promise.resolve(null);
      if (buffered) {
        const digit = buffered[0];
        buffered = buffered.slice(1);
        return Promise.resolve(digit);
      }
      return new Promise((resolve) => {
        const giveUp = () => {
          if (waiter !== own) return;
          waiter = undefined;
          clearTimeout(timer);
          resolve(null);
        };
        const timer = setTimeout(giveUp, timeoutMs);
        const own = (digit: string | null) => {
          clearTimeout(timer);
          resolve(digit);
        };
        waiter = own;
        void until?.then(giveUp);
      });
    },
    onAudio(listener) {
      leg.on('audio', listener);
      return () => void leg.off('audio', listener);
    },
    get queuedFrames() {
      return leg.queuedFrames;
    },
    get isEnded() {
      return isEnded;
    },
    ended: leg.ended,
  };
}
