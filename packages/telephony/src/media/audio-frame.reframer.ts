/** μ-law bytes in one 20 ms frame at 8 kHz. */
export const FRAME_BYTES = 160;

export interface AudioReframer {
  /** The whole 20 ms frames completed by this payload; a remainder waits for the next payload. */
  push(payload: Buffer): Buffer[];
}

/** Peers may send 10, 20 or 30 ms packets; the call leg always hands out 20 ms frames. */
export function createAudioReframer(frameBytes = FRAME_BYTES): AudioReframer {
  let pending = Buffer.alloc(0);
  return {
    push(payload) {
      if (pending.length === 0 && payload.length === frameBytes) return [Buffer.from(payload)];
      pending = Buffer.concat([pending, payload]);
      const frames: Buffer[] = [];
      while (pending.length >= frameBytes) {
        frames.push(Buffer.from(pending.subarray(0, frameBytes)));
        pending = pending.subarray(frameBytes);
      }
      return frames;
    },
  };
}

/** Splits μ-law audio into 20 ms frames, padding the last one with silence. */
export function splitIntoFrames(mulaw: Buffer, silenceByte: number, frameBytes = FRAME_BYTES): Buffer[] {
  const frames: Buffer[] = [];
  for (let offset = 0; offset < mulaw.length; offset += frameBytes) {
    const frame = Buffer.alloc(frameBytes, silenceByte);
    mulaw.copy(frame, 0, offset, Math.min(offset + frameBytes, mulaw.length));
    frames.push(frame);
  }
  return frames;
}
