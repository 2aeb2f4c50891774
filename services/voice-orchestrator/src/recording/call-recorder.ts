import { decodeMulaw } from '@switchboard/telephony';
import { encodeWav } from './stereo-wav';

const FRAME_MS = 20;
const SAMPLES_PER_FRAME = 160;

/**
 * Both directions of a call on one timeline that starts at the answer (docs/voice.md#recording): each 20 ms frame
 * goes to the slot of its time. The callee's frames are placed by arrival; the agent's by when the paced sender
 * will play them, which is right after what is queued before them. A barge-in takes back the agent frames that
 * were dropped before being sent.
 */
export function createCallRecorder(clock: () => number = Date.now) {
  let answeredAt: number | undefined;
  const callee = new Map<number, Buffer>();
  const agent = new Map<number, Buffer>();
  let agentNextSlot = 0;

  const slotNow = () => Math.max(0, Math.floor((clock() - (answeredAt as number)) / FRAME_MS));

  return {
    start() {
      answeredAt ??= clock();
    },
    calleeFrame(frame: Buffer) {
      if (answeredAt === undefined) return;
      let slot = slotNow();
      while (callee.has(slot)) slot += 1; // jitter: two frames in one slot's time
      callee.set(slot, frame);
    },
    agentAudio(mulaw: Buffer) {
      if (answeredAt === undefined) return;
      agentNextSlot = Math.max(agentNextSlot, slotNow());
      for (let offset = 0; offset < mulaw.length; offset += SAMPLES_PER_FRAME) agent.set(agentNextSlot++, mulaw.subarray(offset, offset + SAMPLES_PER_FRAME));
    },
    /** The frames a barge-in dropped were never heard: remove them from the end of the agent's track. */
    agentDropped(frames: number) {
      for (let i = 0; i < frames && agentNextSlot > 0; i += 1) agent.delete(--agentNextSlot);
    },
    /** Stereo 8 kHz 16-bit PCM: callee left, agent right; null when the call was never answered. */
    finish(): { wav: Buffer; durationSeconds: number } | null {
      if (answeredAt === undefined) return null;
      let lastSlot = -1;
      for (const slot of [...callee.keys(), ...agent.keys()]) lastSlot = Math.max(lastSlot, slot);
      // The call lasted until now; audio still queued when it ended may reach past that.
      const slots = Math.max(slotNow(), lastSlot + 1);
      const samples = new Int16Array(slots * SAMPLES_PER_FRAME * 2);
      const place = (track: Map<number, Buffer>, channel: number) => {
        for (const [slot, frame] of track) {
          const pcm = decodeMulaw(frame);
          const base = slot * SAMPLES_PER_FRAME;
          for (let i = 0; i < pcm.length; i += 1) samples[(base + i) * 2 + channel] = pcm[i];
        }
      };
      place(callee, 0);
      place(agent, 1);
      return { wav: encodeWav(samples, 2, 8000), durationSeconds: (slots * FRAME_MS) / 1000 };
    },
  };
}
export type CallRecorder = ReturnType<typeof createCallRecorder>;
