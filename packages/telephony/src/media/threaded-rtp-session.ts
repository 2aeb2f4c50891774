import { FRAME_BYTES } from './audio-frame.reframer';
import { planDtmfEvent } from './dtmf-event.plan';
import { processMediaThread } from './media-thread.client';
import { createSharedLegWords, readLateness, SHARED } from './media-thread.shared';
import type { RtpPortRange } from './rtp-port.range';
import type { RtpSession, RtpSessionListener } from './rtp-session';

/**
 * An RtpSession whose socket, pacing and packets live in the process's media thread (docs/voice-telephony.md#media-thread).
 * This side numbers the frames it queues and keeps the count; the thread moves the shared playback cursor as it
 * sends them, so `queuedFrames` and a barge-in's `clear()` are answered here at once and exactly.
 */
export async function openThreadedRtpSession(bindAddress: string, listener: RtpSessionListener, ports?: RtpPortRange): Promise<RtpSession> {
  const thread = processMediaThread();
  const words = createSharedLegWords();
  let queued = 0;
  let started = false;
  let closed = false;
  const { leg, port } = await thread.open(
    { bindAddress, ports, words },
    {
      onFirstPacket: () => listener.onFirstPacket(),
      onAudioFrame: (frame) => listener.onAudioFrame(frame),
      onDigit: (digit) => listener.onDigit(digit),
      // The thread sent the last frame it knew of: drained only if that was the last one queued here, not when more
      // was queued since or a barge-in dropped the rest (which, as on the main thread, reports no drain).
      onDrained: (playedThrough) => playedThrough === queued && listener.onPlaybackDrained(),
      onThreadLost: (reason) => {
        closed = true;
        listener.onMediaLost?.(reason);
      },
    },
  );

  return {
    localPort: port,
    start(remote) {
      if (started || closed) return;
      started = true;
      thread.post({ op: 'start', leg, address: remote.address, port: remote.port, telephoneEventPayloadType: remote.telephoneEventPayloadType ?? 101 });
    },
    outbound: {
      enqueue(mulaw) {
        const frames = Math.ceil(mulaw.length / FRAME_BYTES);
        if (closed || frames === 0) return;
        // A copy, because the caller may keep its buffer (the TTS cache does); the copy itself is moved, not cloned.
        const audio = new Uint8Array(mulaw);
        thread.post({ op: 'enqueue', leg, firstIndex: queued, audio }, [audio.buffer]);
        queued += frames;
      },
      clear() {
        return queued - Atomics.exchange(words, SHARED.playbackCursor, queued);
      },
      queueDigits(digits) {
        for (const digit of digits) planDtmfEvent(digit);
        if (!closed && digits.length > 0) thread.post({ op: 'dtmf', leg, digits });
      },
      openPlayback() {
        if (!closed) thread.post({ op: 'open-playback', leg });
      },
      get queuedFrames() {
        return queued - Atomics.load(words, SHARED.playbackCursor);
      },
    },
    get stats() {
      return {
        framesSent: Atomics.load(words, SHARED.framesSent),
        framesLate: Atomics.load(words, SHARED.framesLate),
        latenessMs: readLateness(words),
        packetsReceived: Atomics.load(words, SHARED.packetsReceived),
        packetsDropped: Atomics.load(words, SHARED.packetsDropped),
      };
    },
    close() {
      if (closed) return;
      closed = true;
      thread.close(leg);
    },
  };
}
