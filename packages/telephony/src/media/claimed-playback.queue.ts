import type { PlaybackQueue } from './playback.queue';
import { SHARED } from './media-thread.shared';

/** The media thread's side of a leg's playback: the frames the main thread queued, each with its index. */
export interface ClaimedPlaybackQueue extends PlaybackQueue {
  /** Frames the main thread numbered `firstIndex`, `firstIndex + 1`, …, in the order it queued them. */
  pushNumbered(firstIndex: number, frames: Buffer[]): void;
  /** One past the index of the last frame `take` returned: the count of frames played so far. */
  readonly playedThrough: number;
}

/**
 * A frame goes out only if the media thread wins it from the shared cursor (media-thread.shared.ts): a barge-in on
 * the main thread has moved the cursor past the frames it dropped, and those are discarded here when reached, so a
 * prompt stops on the very next tick even before the main thread's message arrives.
 */
export function createClaimedPlaybackQueue(words: Int32Array): ClaimedPlaybackQueue {
  const frames: Buffer[] = [];
  let frontIndex = 0;
  let playedThrough = 0;

  const dropCleared = (): void => {
    const cursor = Atomics.load(words, SHARED.playbackCursor);
    const dropped = Math.min(frames.length, Math.max(0, cursor - frontIndex));
    if (dropped === 0) return;
    frames.splice(0, dropped);
    frontIndex += dropped;
  };

  return {
    pushNumbered(firstIndex, more) {
      if (frames.length === 0) frontIndex = firstIndex;
      frames.push(...more);
    },
    push(more) {
      this.pushNumbered(frontIndex + frames.length, more);
    },
    take() {
      for (;;) {
        dropCleared();
        if (frames.length === 0) return undefined;
        const index = frontIndex;
        const frame = frames.shift() as Buffer;
        frontIndex += 1;
        if (Atomics.compareExchange(words, SHARED.playbackCursor, index, index + 1) !== index) continue;
        playedThrough = index + 1;
        return frame;
      }
    },
    clear() {
      const cursor = Atomics.load(words, SHARED.playbackCursor);
      const end = frontIndex + frames.length;
      Atomics.store(words, SHARED.playbackCursor, Math.max(cursor, end));
      const dropped = frames.length;
      frames.length = 0;
      frontIndex = end;
      return dropped;
    },
    get playedThrough() {
      return playedThrough;
    },
    get length() {
      dropCleared();
      return frames.length;
    },
  };
}
