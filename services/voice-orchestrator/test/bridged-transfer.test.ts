import { EventEmitter } from 'node:events';
import type { CallEnd, CallLeg, OriginateRequest, TelephonyTrunk } from '@switchboard/telephony';
import { getLogger } from '@switchboard/logger';
import type { AgentMedia } from '../src/agent/agent-media';
import { bridgeSecondLeg, type BridgeDeps } from '../src/calls/bridged-transfer';
import { createLineBudget } from '../src/calls/line-budget';

/** A leg driven by the test: it records what is played and sent to it, and the test raises its events. */
function fakeLeg(id: string) {
  const emitter = new EventEmitter();
  let resolveEnded!: (end: CallEnd) => void;
  const ended = new Promise<CallEnd>((resolve) => (resolveEnded = resolve));
  let state: CallLeg['state'] = 'ringing';
  const played: Buffer[] = [];
  const digits: string[] = [];
  const end = (end: CallEnd) => {
    if (state === 'ended') return;
    state = 'ended';
    emitter.emit('ended', end);
    resolveEnded(end);
  };
  const leg = {
    id,
    get state() {
      return state;
    },
    on: (event: string, listener: (...args: unknown[]) => void) => (emitter.on(event, listener), leg),
    once: (event: string, listener: (...args: unknown[]) => void) => (emitter.once(event, listener), leg),
    off: (event: string, listener: (...args: unknown[]) => void) => (emitter.off(event, listener), leg),
    ended,
    hangup: async (reason = 'hangup_api') => {
      end({ outcome: state === 'answered' ? 'completed' : 'canceled', endReason: reason });
      return ended;
    },
    cancel: async (reason?: string) => leg.hangup(reason),
    play: (frame: Buffer) => void played.push(frame),
    clearPlayback: () => 0,
    queuedFrames: 0,
    sendDtmf: (d: string) => void digits.push(d),
    mediaStats: { framesSent: 0, framesLate: 0, packetsReceived: 0, packetsDropped: 0 },
    transfer: async () => ({ accepted: false, referStatus: 0, referTo: '' }),
  } as unknown as CallLeg;
  return {
    leg,
    played,
    digits,
    answer() {
      state = 'answered';
      emitter.emit('answered');
      emitter.emit('media-ready');
    },
    emit: (event: string, ...args: unknown[]) => emitter.emit(event, ...args),
    end,
  };
}

function harness(capacity = 4) {
  const first = fakeLeg('first');
  first.answer();
  const second = fakeLeg('second');
  const dialled: OriginateRequest[] = [];
  const trunk: TelephonyTrunk = {
    originate: async (request) => {
      dialled.push(request);
      return second.leg;
    },
    close: async () => undefined,
  };
  const toCallee: Buffer[] = [];
  const media = { play: (frame: Buffer) => void (toCallee.push(frame), first.leg.play(frame)), clearPlayback: () => undefined } as unknown as AgentMedia;
  const turns: string[] = [];
  const lines = createLineBudget({ capacity, callsHeld: () => 1 });
  const deps: BridgeDeps = {
    trunk,
    lines,
    transcript: async (speaker, text) => void turns.push(`${speaker}: ${text}`),
    logger: getLogger({ service: 'test', level: 'error' }),
    fields: { call_id: 'call_1' },
  };
  const request = { to: '+15550100', from: '+15550001', ringTimeoutMs: 10_000 };
  return { first, second, dialled, media, toCallee, turns, lines, deps, request };
}

describe('bridged transfer', () => {
  it("dials the second leg with the call's caller id and relays frames and digits both ways once its media is ready", async () => {
    const h = harness();
    const attempt = bridgeSecondLeg(h.first.leg, h.media, h.request, h.deps);
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.dialled).toEqual([{ to: '+15550100', from: '+15550001', ringTimeoutMs: 10_000 }]);
    expect(h.lines.secondLegs).toBe(1);
    h.first.emit('audio', Buffer.alloc(160, 1)); // before the bridge: not relayed
    h.second.answer();
    const bridged = await attempt;
    expect(bridged).toMatchObject({ connected: true, to: '+15550100' });
    h.first.emit('audio', Buffer.alloc(160, 2));
    h.second.emit('audio', Buffer.alloc(160, 3));
    h.first.emit('dtmf', '5');
    h.second.emit('dtmf', '#');
    expect(h.second.played).toEqual([Buffer.alloc(160, 2)]);
    expect(h.toCallee).toEqual([Buffer.alloc(160, 3)]); // through media: the recording's right channel
    expect(h.second.digits).toEqual(['5']);
    expect(h.first.digits).toEqual(['#']);
    expect(h.turns).toEqual(['callee: DTMF: 5', 'agent: DTMF: #']);

    h.second.end({ outcome: 'completed', endReason: 'callee_hangup' });
    if (bridged.connected) await bridged.finished;
    await expect(h.first.leg.ended).resolves.toEqual({ outcome: 'completed', endReason: 'completed' });
    expect(h.lines.secondLegs).toBe(0);
  });

  it("the callee's hangup hangs up the second party", async () => {
    const h = harness();
    const attempt = bridgeSecondLeg(h.first.leg, h.media, h.request, h.deps);
    await new Promise((resolve) => setImmediate(resolve));
    h.second.answer();
    const bridged = await attempt;
    h.first.end({ outcome: 'completed', endReason: 'callee_hangup' });
    if (bridged.connected) await bridged.finished;
    expect(h.second.leg.state).toBe('ended');
  });

  it('a second leg that ends before its media is ready is a failed bridge with its end reason', async () => {
    const h = harness();
    const attempt = bridgeSecondLeg(h.first.leg, h.media, h.request, h.deps);
    await new Promise((resolve) => setImmediate(resolve));
    h.second.end({ outcome: 'busy', endReason: 'busy', sipStatus: 486 });
    await expect(attempt).resolves.toEqual({ connected: false, to: '+15550100', reason: 'busy' });
    expect(h.first.leg.state).toBe('answered');
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.lines.secondLegs).toBe(0);
  });

  it('the callee hanging up while the second leg rings cancels it', async () => {
    const h = harness();
    const attempt = bridgeSecondLeg(h.first.leg, h.media, h.request, h.deps);
    await new Promise((resolve) => setImmediate(resolve));
    h.first.end({ outcome: 'completed', endReason: 'callee_hangup' });
    await expect(attempt).resolves.toEqual({ connected: false, to: '+15550100', reason: 'call_ended' });
    expect(h.second.leg.state).toBe('ended');
  });

  it('with every line in use no second leg is dialled', async () => {
    const h = harness(1);
    await expect(bridgeSecondLeg(h.first.leg, h.media, h.request, h.deps)).resolves.toEqual({ connected: false, to: '+15550100', reason: 'no_free_line' });
    expect(h.dialled).toEqual([]);
  });
});
