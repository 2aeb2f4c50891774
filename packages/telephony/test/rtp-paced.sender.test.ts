import { createPacedRtpSender, type PacedSenderClock } from '../src/media/rtp-paced.sender';
import { createPacingClock } from '../src/media/rtp-pacing.clock';

/** A manual clock: the test moves time and fires the one pending timer. */
function manualClock() {
  let now = 1000;
  let pending: { fn: () => void; at: number } | undefined;
  const clock: PacedSenderClock = {
    now: () => now,
    setTimer: (fn, ms) => (pending = { fn, at: now + ms }),
    clearTimer: () => (pending = undefined),
  };
  return {
    clock,
    /** Advances to the timer's due time plus an extra delay (a busy event loop), then fires it. */
    fire(extraDelay = 0) {
      const timer = pending!;
      pending = undefined;
      now = Math.max(now, timer.at) + extraDelay;
      timer.fn();
    },
    get pendingAt() {
      return pending?.at;
    },
  };
}

describe('paced RTP sender', () => {
  it('sends tick n at start + 20n ms against the start time, not the previous wake-up', () => {
    const time = manualClock();
    const sent: number[] = [];
    let n = 0;
    const sender = createPacedRtpSender({ produce: () => [Buffer.from([n++])], transmit: (p) => sent.push(p[0]), clock: time.clock });
    sender.start();
    expect(sent).toEqual([0]);
    expect(time.pendingAt).toBe(1020);
    time.fire(5);
    expect(time.pendingAt).toBe(1040);
    time.fire();
    expect(sent).toEqual([0, 1, 2]);
    expect(sender.stats).toEqual({ framesSent: 3, framesLate: 0, latenessMs: { 0: 2, 5: 1 } });
  });

  it('catches up after a stall and counts ticks sent more than 20 ms late', () => {
    const time = manualClock();
    const sender = createPacedRtpSender({ produce: () => [Buffer.alloc(1)], transmit: () => undefined, clock: time.clock });
    sender.start();
    time.fire(75); // woke at 1095: ticks due at 1020, 1040, 1060, 1080 are 75, 55, 35 and 15 ms late
    expect(sender.stats).toEqual({ framesSent: 5, framesLate: 3, latenessMs: { 0: 1, 75: 1, 55: 1, 35: 1, 15: 1 } });
    expect(time.pendingAt).toBe(1100);
  });

  it('stops sending on stop', () => {
    const time = manualClock();
    const sent: Buffer[] = [];
    const sender = createPacedRtpSender({ produce: () => [Buffer.alloc(1)], transmit: (p) => sent.push(p), clock: time.clock });
    sender.start();
    sender.stop();
    expect(time.pendingAt).toBeUndefined();
    expect(sent).toHaveLength(1);
  });

  it('sends nothing more once a tick’s producer stopped it (a listener hung up)', () => {
    const time = manualClock();
    const sent: Buffer[] = [];
    let ticks = 0;
    const sender = createPacedRtpSender({
      produce: () => {
        if (++ticks === 2) sender.stop();
        return [Buffer.alloc(1)];
      },
      transmit: (p) => sent.push(p),
      clock: time.clock,
    });
    sender.start();
    time.fire(100);
    expect(sent).toHaveLength(1);
    expect(time.pendingAt).toBeUndefined();
  });

  it('legs on one pacing clock share its single timer, a late joiner ticking on the same 20 ms grid', () => {
    const time = manualClock();
    const pacer = createPacingClock(time.clock);
    const sent: string[] = [];
    const leg = (name: string) =>
      createPacedRtpSender({ produce: () => [Buffer.from(name)], transmit: (p) => sent.push(p.toString()), clock: time.clock, pacer });
    const a = leg('a');
    const b = leg('b');
    a.start(); // 1000: a's tick 0
    time.fire(7); // 1027: a's tick 1, 7 ms late
    b.start(); // joins on the grid point 1020: its tick 0 goes out now
    expect(time.pendingAt).toBe(1040);
    time.fire();
    expect(sent).toEqual(['a', 'a', 'b', 'a', 'b']);
    expect(b.stats).toEqual({ framesSent: 2, framesLate: 0, latenessMs: { 7: 1, 0: 1 } });
    a.stop();
    expect(time.pendingAt).toBe(1060); // b still ticks
    b.stop();
    expect(time.pendingAt).toBeUndefined();
  });

  it('with one frame of send-ahead, sends the next tick early and a wake-up 20 ms late is not late', () => {
    const time = manualClock();
    const dueOf: number[] = [];
    const sender = createPacedRtpSender({ produce: () => [Buffer.alloc(1)], transmit: () => dueOf.push(time.clock.now()), clock: time.clock, sendAheadMs: 20 });
    sender.start(); // 1000: ticks due at 1000 and 1020
    expect(sender.stats.framesSent).toBe(2);
    time.fire(19); // 1039: the tick due at 1040 goes out a millisecond early
    expect(sender.stats).toEqual({ framesSent: 3, framesLate: 0, latenessMs: { 0: 3 } });
    time.fire(65); // 1105: ticks due at 1060, 1080, 1100 (late 45, 25, 5) and the one due at 1120 (early)
    expect(sender.stats).toEqual({ framesSent: 7, framesLate: 2, latenessMs: { 0: 4, 45: 1, 25: 1, 5: 1 } });
    sender.stop();
  });
});
