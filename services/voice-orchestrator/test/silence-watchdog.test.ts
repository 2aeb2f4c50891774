import { EventEmitter } from 'node:events';
import type { CallLeg } from '@switchboard/telephony';
import { watchForSilence } from '../src/calls/silence-watchdog';

const QUIET = Buffer.alloc(160, 0xff); // μ-law zero
const LOUD = Buffer.alloc(160, 0x00); // μ-law full scale

/** The parts of a leg the watchdog uses: audio and dtmf events, the playback queue, hangup and the end. */
function fakeLeg() {
  const emitter = new EventEmitter();
  const hangups: string[] = [];
  let resolveEnded!: () => void;
  const state = { queuedFrames: 0 };
  const leg = {
    on: (event: string, listener: (...args: unknown[]) => void) => emitter.on(event, listener),
    off: (event: string, listener: (...args: unknown[]) => void) => emitter.off(event, listener),
    get queuedFrames() {
      return state.queuedFrames;
    },
    hangup: async (reason: string) => {
      hangups.push(reason);
      resolveEnded();
    },
    ended: new Promise<void>((resolve) => (resolveEnded = resolve)),
  } as unknown as CallLeg;
  return { leg, emitter, hangups, state };
}

describe('silence watchdog', () => {
  let now = 0;
  const clock = () => now;
  const advance = (ms: number) => {
    now += ms;
    jest.advanceTimersByTime(ms);
  };
  beforeEach(() => {
    jest.useFakeTimers();
    now = 0;
  });
  afterEach(() => jest.useRealTimers());

  it('hangs up with silence_timeout after the timeout of quiet frames', () => {
    const { leg, emitter, hangups } = fakeLeg();
    watchForSilence(leg, 3_000, clock);
    for (let t = 0; t < 2_900; t += 100) {
      emitter.emit('audio', QUIET);
      advance(100);
    }
    expect(hangups).toEqual([]);
    advance(500);
    expect(hangups).toEqual(['silence_timeout']);
  });

  it('speech, a digit, or the agent speaking restart the count', () => {
    const { leg, emitter, hangups, state } = fakeLeg();
    watchForSilence(leg, 3_000, clock);
    advance(2_500);
    emitter.emit('audio', LOUD);
    advance(2_500);
    emitter.emit('dtmf', '5');
    advance(2_500);
    state.queuedFrames = 100; // a long prompt plays
    advance(10_000);
    state.queuedFrames = 0;
    advance(2_500);
    expect(hangups).toEqual([]);
    advance(1_000);
    expect(hangups).toEqual(['silence_timeout']);
  });

  it('does not count while paused (a bridged second leg ringing), and counts again from the end of the pause', () => {
    const { leg, hangups } = fakeLeg();
    let ringing = false;
    watchForSilence(leg, 3_000, clock, () => ringing);
    advance(2_000);
    ringing = true;
    advance(20_000);
    expect(hangups).toEqual([]);
    ringing = false;
    advance(2_500);
    expect(hangups).toEqual([]);
    advance(1_000);
    expect(hangups).toEqual(['silence_timeout']);
  });

  it('stops when stopped', () => {
    const { leg, hangups } = fakeLeg();
    const stop = watchForSilence(leg, 3_000, clock);
    stop();
    advance(10_000);
    expect(hangups).toEqual([]);
  });
});
