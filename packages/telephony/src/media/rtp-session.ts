import type { Socket } from 'node:dgram';
import { randomInt } from 'node:crypto';
import type { MediaStats } from '../telephony.types';
import { createPacedRtpSender, type PacedRtpSender } from './rtp-paced.sender';
import { createRtpInboundHandler, type RtpInboundHandler, type RtpInboundListener } from './rtp-inbound.handler';
import { createRtpOutboundStream, type RtpOutboundStream } from './rtp-outbound.stream';
import { bindInRange, bindUdp, type RtpPortRange } from './rtp-port.range';

export interface RtpSessionListener extends RtpInboundListener {
  onPlaybackDrained(): void;
  /**
   * The session's media is gone for good (its media thread died, docs/voice-telephony.md#media-thread): nothing is sent or
   * received any more, and the owner should end the call. A session on the calling thread never reports this.
   */
  onMediaLost?(reason: string): void;
}

/** The outbound stream as the leg's owner uses it: what is queued and played, never the packets themselves. */
export type RtpPlayback = Pick<RtpOutboundStream, 'enqueue' | 'clear' | 'queueDigits' | 'openPlayback' | 'queuedFrames'>;

/**
 * One leg's media: a UDP socket bound before the offer (so the SDP can name its port), the outbound stream
 * (audio can be queued before the answer and waits for `openPlayback`), and, once started, the paced sender
 * and the inbound handler.
 */
export interface RtpSession {
  readonly localPort: number;
  /** Starts sending to the peer's address from its answer and accepting its packets. */
  start(remote: { address: string; port: number; telephoneEventPayloadType?: number }): void;
  readonly outbound: RtpPlayback;
  readonly stats: MediaStats;
  close(): void;
}

/**
 * A session whose socket and pacing run on the calling thread. The orchestrator's legs use the media thread instead
 * (threaded-rtp-session.ts); this one serves a process with little else to do, such as the carrier simulator, and
 * tests of the calling-thread path (`mediaThread: false`, docs/voice-telephony.md#media-thread).
 */
export async function openRtpSession(bindAddress: string, listener: RtpSessionListener, ports?: RtpPortRange): Promise<RtpSession> {
  const socket: Socket = ports ? await bindInRange(bindAddress, ports) : await bindUdp(bindAddress, 0);
  // A send to a closed port on loopback surfaces as an asynchronous ICMP error; the stream must not die of it.
  socket.on('error', () => undefined);
  const outbound = createRtpOutboundStream({
    ssrc: randomInt(0, 2 ** 32 - 1),
    initialSequence: randomInt(0, 0xffff),
    initialTimestamp: randomInt(0, 2 ** 32 - 1),
    onDrained: () => listener.onPlaybackDrained(),
  });
  let sender: PacedRtpSender | undefined;
  let inbound: RtpInboundHandler | undefined;
  let closed = false;

  return {
    localPort: socket.address().port,
    outbound,
    start(remote) {
      if (sender || closed) return;
      const eventPt = remote.telephoneEventPayloadType ?? 101;
      outbound.setTelephoneEventPayloadType(eventPt);
      const handler = createRtpInboundHandler({ telephoneEventPayloadType: eventPt }, listener);
      inbound = handler;
      socket.on('message', (datagram) => handler.handle(datagram));
      sender = createPacedRtpSender({
        // One frame of send-ahead absorbs a wake-up up to 20 ms late (docs/performance/voice.md#voice).
        sendAheadMs: 20,
        produce: () => outbound.nextTick(),
        transmit: (packet) => {
          if (!closed) socket.send(packet, remote.port, remote.address);
        },
      });
      sender.start();
    },
    get stats() {
      return {
        framesSent: sender?.stats.framesSent ?? 0,
        framesLate: sender?.stats.framesLate ?? 0,
        latenessMs: sender?.stats.latenessMs ?? {},
        packetsReceived: inbound?.stats.packetsReceived ?? 0,
        packetsDropped: inbound?.stats.packetsDropped ?? 0,
      };
    },
    close() {
      if (closed) return;
      closed = true;
      sender?.stop();
      socket.close();
    },
  };
}
