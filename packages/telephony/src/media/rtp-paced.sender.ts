import { performance } from 'node:perf_hooks';

export interface PacedSenderClock {
  /** Monotonic milliseconds. */
  now(): number;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export interface PacedRtpSenderOptions {
  /** The packets of one tick (see RtpOutboundStream.nextTick). */
  produce(): Buffer[];
  transmit(packet: Buffer): void;
  /** @defaultValue 20 */
  frameMs?: number;
  clock?: PacedSenderClock;
}

export interface PacedSenderStats {
  /** Ticks sent. */
  framesSent: number;
  /** Ticks sent more than one frame period after their due time: the share a bench reports. */
  framesLate: number;
  /** How late each tick went out: whole milliseconds after its due time → ticks (a sparse histogram, for p50/p95/max). */
  latenessMs: Record<number, number>;
}

export interface PacedRtpSender {
  start(): void;
  stop(): void;
  readonly stats: PacedSenderStats;
}

const systemClock: PacedSenderClock = {
  now: () => performance.now(),
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Sends tick n at start + n × 20 ms. Each wake-up sends every tick that has come due and sleeps until the next
 * one, so a late timer never shifts the timeline the way a setInterval would; a tick sent more than one frame
 * period late still goes out (the peer's jitter buffer sorts it by timestamp) and is counted.
 */
export function createPacedRtpSender(opts: PacedRtpSenderOptions): PacedRtpSender {
  const clock = opts.clock ?? systemClock;
  const frameMs = opts.frameMs ?? 20;
  const stats: PacedSenderStats = { framesSent: 0, framesLate: 0, latenessMs: {} };
  let startedAt = 0;
  let timer: unknown;
  let running = false;

  const wake = (): void => {
    if (!running) return;
    const now = clock.now();
    let due = startedAt + stats.framesSent * frameMs;
    while (running && due <= now) {
      const lateness = Math.floor(now - due);
      stats.latenessMs[lateness] = (stats.latenessMs[lateness] ?? 0) + 1;
      if (now - due > frameMs) stats.framesLate++;
      const packets = opts.produce();
      // produce() can end the call (a playback-drained listener hanging up): then nothing more goes out.
      if (!running) break;
      for (const packet of packets) opts.transmit(packet);
      stats.framesSent++;
      due = startedAt + stats.framesSent * frameMs;
    }
    if (running) timer = clock.setTimer(wake, Math.max(0, due - clock.now()));
  };

  return {
    start() {
      if (running) return;
      running = true;
      startedAt = clock.now();
      wake();
    },
    stop() {
      running = false;
      if (timer !== undefined) clock.clearTimer(timer);
      timer = undefined;
    },
    stats,
  };
}
