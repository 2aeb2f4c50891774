import { FRAME_BYTES, splitIntoFrames } from './audio-frame.reframer';
import { planDtmfEvent, type DtmfEventOptions, type DtmfPacketPlan } from './dtmf-event.plan';
import { MULAW_SILENCE } from './g711-mulaw.codec';
import { createArrayPlaybackQueue, type PlaybackQueue } from './playback.queue';
import { buildRtpPacket } from './rtp-packet.codec';

export interface RtpOutboundStreamOptions {
  ssrc: number;
  initialSequence: number;
  initialTimestamp: number;
  /** @defaultValue 0 (PCMU) */
  audioPayloadType?: number;
  /** The telephone-event payload type the peer accepted. @defaultValue 101 */
  telephoneEventPayloadType?: number;
  dtmf?: DtmfEventOptions;
  /** Silence between two digits of one `sendDtmf` call. @defaultValue 5 ticks (100 ms) */
  interDigitGapTicks?: number;
  /** Called on the tick that sends the last queued audio frame. */
  onDrained?: () => void;
  /** Where queued audio waits. @defaultValue a plain array of this stream's own */
  playback?: PlaybackQueue;
}

/**
 * What goes out on each 20 ms tick: the next queued audio frame, or silence while the queue is empty or the media
 * is not yet open (a continuous stream keeps NAT bindings and the peer's jitter buffer steady), or the next packet
 * of a DTMF event, during which audio playback waits.
 */
export interface RtpOutboundStream {
  /** The packets for one tick (normally exactly one). */
  nextTick(): Buffer[];
  /** Queues μ-law audio; the tail is padded with silence to a whole frame. */
  enqueue(mulaw: Buffer): void;
  /** Drops queued audio (barge-in). Returns how many frames were dropped. */
  clear(): number;
  /** Queues digits for RFC 4733 events. Throws on a character that is not a DTMF digit, queuing none. */
  queueDigits(digits: string): void;
  /** Until called, ticks send silence and keep queued audio for later. */
  openPlayback(): void;
  /** The payload type the peer's answer gave telephone-event, if not the one offered. */
  setTelephoneEventPayloadType(payloadType: number): void;
  readonly queuedFrames: number;
  readonly sendingDtmf: boolean;
}

const SAMPLES_PER_FRAME = FRAME_BYTES;

export function createRtpOutboundStream(opts: RtpOutboundStreamOptions): RtpOutboundStream {
  const audioPt = opts.audioPayloadType ?? 0;
  let eventPt = opts.telephoneEventPayloadType ?? 101;
  const gapTicks = opts.interDigitGapTicks ?? 5;
  const silence = Buffer.alloc(FRAME_BYTES, MULAW_SILENCE);
  const audio = opts.playback ?? createArrayPlaybackQueue();
  const digits: string[] = [];
  let sequence = opts.initialSequence & 0xffff;
  let timestamp = opts.initialTimestamp >>> 0;
  let first = true;
  let playbackOpen = false;
  let event: { timestamp: number; packets: DtmfPacketPlan[] } | undefined;
  let ticksSinceEvent = Number.POSITIVE_INFINITY;

  const packet = (payloadType: number, marker: boolean, ts: number, payload: Buffer): Buffer => {
    const out = buildRtpPacket({ payloadType, marker, sequence, timestamp: ts, ssrc: opts.ssrc, payload });
    sequence = (sequence + 1) & 0xffff;
    return out;
  };

  const eventTick = (): Buffer | undefined => {
    if (!event && digits.length > 0 && ticksSinceEvent >= gapTicks) {
      event = { timestamp, packets: planDtmfEvent(digits.shift() as string, opts.dtmf) };
    }
    if (!event) return undefined;
    const next = event.packets.shift() as DtmfPacketPlan;
    const out = packet(eventPt, next.marker, event.timestamp, next.payload);
    if (event.packets.length === 0) {
      event = undefined;
      ticksSinceEvent = 0;
    }
    return out;
  };

  return {
    nextTick() {
      let out = eventTick();
      if (!out) {
        ticksSinceEvent++;
        const frame = playbackOpen ? audio.take() : undefined;
        out = packet(audioPt, first, timestamp, frame ?? silence);
        first = false;
        if (frame && audio.length === 0) opts.onDrained?.();
      }
      timestamp = (timestamp + SAMPLES_PER_FRAME) >>> 0;
      return [out];
    },
    enqueue(mulaw) {
      audio.push(splitIntoFrames(mulaw, MULAW_SILENCE));
    },
    clear() {
      return audio.clear();
    },
    queueDigits(text) {
      for (const digit of text) planDtmfEvent(digit, opts.dtmf);
      digits.push(...text);
    },
    openPlayback() {
      playbackOpen = true;
    },
    setTelephoneEventPayloadType(payloadType) {
      eventPt = payloadType;
    },
    get queuedFrames() {
      return audio.length;
    },
    get sendingDtmf() {
      return event !== undefined || digits.length > 0;
    },
  };
}
