/**
 * The audio frames waiting to be played on one leg. The outbound stream takes one per tick; the queue decides what
 * "waiting" means: a plain array in the thread that sends (the default), or frames whose claim is shared with the
 * thread that queued them (`claimed-playback.queue.ts`, docs/voice-telephony.md#media-thread).
 */
export interface PlaybackQueue {
  push(frames: Buffer[]): void;
  /** The next frame to send now, removed from the queue; undefined when none is waiting. */
  take(): Buffer | undefined;
  /** Drops every waiting frame (barge-in) and returns how many it dropped. */
  clear(): number;
  readonly length: number;
}

export function createArrayPlaybackQueue(): PlaybackQueue {
  const frames: Buffer[] = [];
  return {
    push(more) {
      frames.push(...more);
    },
    take: () => frames.shift(),
    clear: () => frames.splice(0, frames.length).length,
    get length() {
      return frames.length;
    },
  };
}
