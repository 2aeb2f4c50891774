/**
 * The words one leg's two halves share (docs/voice-telephony.md#media-thread): an Int32Array over a SharedArrayBuffer, written
 * by the media thread with Atomics and read by the main thread at any time, without a round trip.
 */
export const SHARED = {
  /**
   * The index of the next queued audio frame to send. Every frame the main thread queues gets the next index; the
   * media thread claims a frame by moving the cursor past it (compare-and-swap) just before sending it, and a
   * barge-in moves it past every frame queued so far in one exchange. Each frame is thus either sent or dropped,
   * never both, and the main thread knows at once how many a barge-in dropped.
   */
  playbackCursor: 0,
  framesSent: 1,
  framesLate: 2,
  packetsReceived: 3,
  packetsDropped: 4,
  /** First word of the frame-lateness histogram: word `latenessBase + ms` counts the ticks sent `ms` late. */
  latenessBase: 5,
} as const;

/** Whole milliseconds of lateness kept one per word; a tick later than the last counts in the last. */
export const LATENESS_BUCKETS = 2048;

export const SHARED_WORDS = SHARED.latenessBase + LATENESS_BUCKETS;

export function createSharedLegWords(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(SHARED_WORDS * Int32Array.BYTES_PER_ELEMENT));
}

export function recordLateness(words: Int32Array, latenessMs: number, late: boolean): void {
  Atomics.add(words, SHARED.framesSent, 1);
  if (late) Atomics.add(words, SHARED.framesLate, 1);
  Atomics.add(words, SHARED.latenessBase + Math.min(LATENESS_BUCKETS - 1, latenessMs), 1);
}

/** The sparse histogram `MediaStats.latenessMs` reports. */
export function readLateness(words: Int32Array): Record<number, number> {
  const histogram: Record<number, number> = {};
  for (let ms = 0; ms < LATENESS_BUCKETS; ms++) {
    const count = Atomics.load(words, SHARED.latenessBase + ms);
    if (count > 0) histogram[ms] = count;
  }
  return histogram;
}
