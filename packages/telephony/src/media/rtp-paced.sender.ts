import { createPacingClock, processPacingClock, systemClock, type PacedSenderClock, type PacingClock, type PacingMembership } from './rtp-pacing.clock';

export type { PacedSenderClock } from './rtp-pacing.clock';

export interface PacedRtpSenderOptions {
  /** The packets of one tick (see RtpOutboundStream.nextTick). */
  produce(): Buffer[];
  transmit(packet: Buffer): void;
  /** @defaultValue 20 */
  frameMs?: number;
  /**
   * How long before its due time a tick may go out. With one frame period, each wake-up sends the tick due at the
   * next grid point too, so a wake-up up to that much late still has its frame out on time; the peer's jitter
   * buffer orders frames by timestamp, and what it holds grows by at most this. @defaultValue 0
   */
  sendAheadMs?: number;
  /** A clock of the sender's own (tests); without one the sender joins the process's shared pacing clock. */
  clock?: PacedSenderClock;
  pacer?: PacingClock;
  /** Told of every tick sent, as `stats` counts it: the media thread mirrors it into shared memory. */
  onSent?: (latenessMs: number, late: boolean) => void;
}

export interface PacedSenderStats {
  /** Ticks sent. */
  framesSent: number;
  /** Ticks sent more than one frame period after their due time: the share a bench reports. */
  framesLate: number;
  /** How late each tick went out: whole milliseconds after its due time (0 for early) → ticks, a sparse histogram. */
  latenessMs: Record<number, number>;
}

export interface PacedRtpSender {
  start(): void;
  stop(): void;
  readonly stats: PacedSenderStats;
}

/**
 * Sends tick n at start + n × 20 ms. Each wake-up of the pacing clock sends every tick that has come due, so a late
 * wake-up never shifts the timeline the way a setInterval would; a tick sent more than one frame period late still
 * goes out (the peer's jitter buffer sorts it by timestamp) and is counted.
 */
export function createPacedRtpSender(opts: PacedRtpSenderOptions): PacedRtpSender {
  const frameMs = opts.frameMs ?? 20;
  const pacer = opts.pacer ?? (opts.clock ? createPacingClock(opts.clock, frameMs) : processPacingClock);
  const clock = opts.clock ?? systemClock;
  const aheadMs = opts.sendAheadMs ?? 0;
  const stats: PacedSenderStats = { framesSent: 0, framesLate: 0, latenessMs: {} };
  let membership: PacingMembership | undefined;
  let running = false;

  const wake = (at: number): void => {
    if (!running) return;
    const startedAt = (membership as PacingMembership).startedAt;
    let due = startedAt + stats.framesSent * frameMs;
    while (running && due <= at + aheadMs) {
      const lateness = Math.max(0, Math.floor(at - due));
      const late = at - due > frameMs;
      stats.latenessMs[lateness] = (stats.latenessMs[lateness] ?? 0) + 1;
      if (late) stats.framesLate++;
      const packets = opts.produce();
      // produce() can end the call (a playback-drained listener hanging up): then nothing more goes out.
      if (!running) break;
      for (const packet of packets) opts.transmit(packet);
      stats.framesSent++;
      opts.onSent?.(lateness, late);
      due = startedAt + stats.framesSent * frameMs;
    }
  };

  return {
    start() {
      if (running) return;
      running = true;
      membership = pacer.join(wake);
      wake(clock.now());
    },
    stop() {
      running = false;
      membership?.leave();
    },
    stats,
  };
}
