import type { Socket } from 'node:dgram';
import { parentPort } from 'node:worker_threads';
import { randomInt } from 'node:crypto';
import { FRAME_BYTES, splitIntoFrames } from './audio-frame.reframer';
import { createClaimedPlaybackQueue, type ClaimedPlaybackQueue } from './claimed-playback.queue';
import { MULAW_SILENCE } from './g711-mulaw.codec';
import type { MainToMediaThread, MediaThreadEvent, MediaThreadToMain } from './media-thread.protocol';
import { recordLateness, SHARED } from './media-thread.shared';
import { createPacedRtpSender, type PacedRtpSender } from './rtp-paced.sender';
import { createRtpInboundHandler } from './rtp-inbound.handler';
import { createRtpOutboundStream, type RtpOutboundStream } from './rtp-outbound.stream';
import { bindInRange, bindUdp } from './rtp-port.range';

// The media thread (docs/voice-telephony.md#media-thread): every RTP socket of the process and the one pacing clock live here,
// so a stall of the main thread (GC, speech work, the database) does not delay a frame. It runs the same outbound
// stream, paced sender and inbound handler as an in-thread leg (rtp-session.ts).

interface ThreadLeg {
  socket: Socket;
  words: Int32Array;
  playback: ClaimedPlaybackQueue;
  outbound: RtpOutboundStream;
  sender?: PacedRtpSender;
  closed: boolean;
}

const port = parentPort;
if (!port) throw new Error('media-thread.worker runs only as a worker thread');
const legs = new Map<number, ThreadLeg>();

// Events go to the main thread in one message per turn of this thread's loop, however many legs produced them.
let pending: MediaThreadEvent[] = [];
let pendingAudio: Buffer[] = [];
let flushScheduled = false;
const flush = (): void => {
  flushScheduled = false;
  const audio = new Uint8Array(pendingAudio.length * FRAME_BYTES);
  pendingAudio.forEach((frame, i) => audio.set(frame, i * FRAME_BYTES));
  const message: MediaThreadToMain = { op: 'events', events: pending, audio };
  pending = [];
  pendingAudio = [];
  port.postMessage(message, [audio.buffer]);
};
const emit = (event: MediaThreadEvent): void => {
  pending.push(event);
  if (!flushScheduled) {
    flushScheduled = true;
    setImmediate(flush);
  }
};

async function open(message: Extract<MainToMediaThread, { op: 'open' }>): Promise<void> {
  const { leg: id, words } = message;
  try {
    const socket = message.ports ? await bindInRange(message.bindAddress, message.ports) : await bindUdp(message.bindAddress, 0);
    // A send to a closed port on loopback surfaces as an asynchronous ICMP error; the stream must not die of it.
    socket.on('error', () => undefined);
    const playback = createClaimedPlaybackQueue(words);
    const outbound = createRtpOutboundStream({
      ssrc: randomInt(0, 2 ** 32 - 1),
      initialSequence: randomInt(0, 0xffff),
      initialTimestamp: randomInt(0, 2 ** 32 - 1),
      playback,
      onDrained: () => emit([id, 'drained', playback.playedThrough]),
    });
    legs.set(id, { socket, words, playback, outbound, closed: false });
    port!.postMessage({ op: 'opened', leg: id, port: socket.address().port } satisfies MediaThreadToMain);
  } catch (error) {
    const failure = error as NodeJS.ErrnoException;
    port!.postMessage({ op: 'open-failed', leg: id, message: failure.message, code: failure.code } satisfies MediaThreadToMain);
  }
}

function start(leg: ThreadLeg, id: number, remote: Extract<MainToMediaThread, { op: 'start' }>): void {
  if (leg.sender || leg.closed) return;
  leg.outbound.setTelephoneEventPayloadType(remote.telephoneEventPayloadType);
  const inbound = createRtpInboundHandler(
    { telephoneEventPayloadType: remote.telephoneEventPayloadType },
    {
      onFirstPacket: () => emit([id, 'first', 0]),
      onAudioFrame: (frame) => {
        emit([id, 'audio', pendingAudio.length * FRAME_BYTES]);
        pendingAudio.push(frame);
      },
      onDigit: (digit) => emit([id, 'digit', digit]),
    },
  );
  leg.socket.on('message', (datagram) => {
    const before = inbound.stats.packetsDropped;
    inbound.handle(datagram);
    Atomics.add(leg.words, inbound.stats.packetsDropped > before ? SHARED.packetsDropped : SHARED.packetsReceived, 1);
  });
  leg.sender = createPacedRtpSender({
    // One frame of send-ahead absorbs a wake-up up to 20 ms late (docs/performance/voice.md#voice).
    sendAheadMs: 20,
    produce: () => leg.outbound.nextTick(),
    transmit: (packet) => {
      if (!leg.closed) leg.socket.send(packet, remote.port, remote.address);
    },
    onSent: (latenessMs, late) => recordLateness(leg.words, latenessMs, late),
  });
  leg.sender.start();
}

port.on('message', (message: MainToMediaThread) => {
  if (message.op === 'open') return void open(message);
  const leg = legs.get(message.leg);
  if (!leg) return;
  switch (message.op) {
    case 'start':
      return start(leg, message.leg, message);
    case 'enqueue':
      return leg.playback.pushNumbered(
        message.firstIndex,
        splitIntoFrames(Buffer.from(message.audio.buffer, message.audio.byteOffset, message.audio.byteLength), MULAW_SILENCE),
      );
    case 'open-playback':
      return leg.outbound.openPlayback();
    case 'dtmf':
      return leg.outbound.queueDigits(message.digits);
    case 'close':
      leg.closed = true;
      leg.sender?.stop();
      leg.socket.close();
      legs.delete(message.leg);
      return;
  }
});
