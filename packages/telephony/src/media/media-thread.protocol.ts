import type { RtpPortRange } from './rtp-port.range';

// The messages between the main thread and the media thread (docs/voice-telephony.md#media-thread). A leg is known by a
// number the main thread gives it; what both sides read often (the playback cursor, the counters) is in shared words
// (media-thread.shared.ts), not in messages.

export type MainToMediaThread =
  | { op: 'open'; leg: number; bindAddress: string; ports?: RtpPortRange; words: Int32Array }
  | { op: 'start'; leg: number; address: string; port: number; telephoneEventPayloadType: number }
  /** μ-law audio whose 20 ms frames are numbered from `firstIndex`; its buffer is transferred, not copied. */
  | { op: 'enqueue'; leg: number; firstIndex: number; audio: Uint8Array }
  | { op: 'open-playback'; leg: number }
  | { op: 'dtmf'; leg: number; digits: string }
  | { op: 'close'; leg: number };

/**
 * What happened on a leg, in order: its first RTP packet, a 20 ms frame of the peer's audio (at `value`, a byte
 * offset into the batch's `audio`), a digit, or its playback draining (`value`: one past the number of the last
 * frame sent, so the main thread can tell whether it queued more since, or dropped the rest in a barge-in).
 */
export type MediaThreadEvent = [leg: number, kind: 'first' | 'audio' | 'digit' | 'drained', value: number | string];

export type MediaThreadToMain =
  | { op: 'opened'; leg: number; port: number }
  | { op: 'open-failed'; leg: number; message: string; code?: string }
  /** Every event since the last batch, and the audio frames they point into (transferred). */
  | { op: 'events'; events: MediaThreadEvent[]; audio: Uint8Array };
