import type { AgentFlowDocument } from '@switchboard/store';
import type { TransferResult } from '@switchboard/telephony';
import type { AgentMedia } from '../src/agent/agent-media';
import { runAgentFlow, type FlowEngineDeps } from '../src/agent/flow-engine';

/** A call that is up and silent: prompts play at once, nobody presses or says anything. */
const media: AgentMedia = {
  play: () => undefined,
  clearPlayback: () => undefined,
  drained: () => Promise.resolve(),
  takeDigits: () => '',
  nextDigit: () => Promise.resolve(null),
  onAudio: () => () => undefined,
  queuedFrames: 0,
  isEnded: false,
  ended: new Promise(() => undefined),
};

function deps(result: TransferResult) {
  const turns: string[] = [];
  const targets: string[] = [];
  const d: FlowEngineDeps = {
    media,
    speak: async () => Buffer.alloc(160),
    transcript: async (speaker, text) => turns.push(`${speaker}: ${text}`),
    markInterrupted: async () => undefined,
    fetchJson: async () => ({}),
    recognize: async () => '',
    matchPhrase: () => -1,
    transfer: async (to) => {
      targets.push(to);
      return result;
    },
  };
  return { d, turns, targets };
}

const flow = (onError?: string): AgentFlowDocument => ({
  start: 'xfer',
  nodes: {
    xfer: { type: 'transfer', to: '+15550100', ...(onError ? { on_error: onError } : {}) },
    sorry: { type: 'say', text: 'Sorry, nobody can take your call.', next: 'bye' },
    bye: { type: 'hangup' },
  },
});

describe('transfer node', () => {
  const referTo = 'sip:+15550100@127.0.0.1:5060';

  it('an accepted transfer ends the flow as transferred, with the transfer in the transcript', async () => {
    const { d, turns, targets } = deps({ accepted: true, referStatus: 202, notifyStatus: 200, referTo });
    await expect(runAgentFlow(flow('sorry'), {}, d)).resolves.toEqual({ kind: 'transferred', referTo });
    expect(targets).toEqual(['+15550100']);
    expect(turns).toEqual([`agent: Transferred to ${referTo}`]);
  });

  it('a failed transfer follows on_error, with the reason in the transcript and in transfer_error', async () => {
    const { d, turns } = deps({ accepted: false, referStatus: 202, notifyStatus: 486, referTo });
    const variables: Record<string, unknown> = {};
    await expect(runAgentFlow(flow('sorry'), variables, d)).resolves.toEqual({ kind: 'hangup' });
    expect(turns).toEqual([`agent: Transfer to ${referTo} failed (REFER 202, NOTIFY 486)`, 'agent: Sorry, nobody can take your call.']);
    expect(variables.transfer_error).toBe('REFER 202, NOTIFY 486');
  });

  it('a failed transfer without on_error hangs up', async () => {
    const { d, turns } = deps({ accepted: false, referStatus: 0, referTo });
    await expect(runAgentFlow(flow(), {}, d)).resolves.toEqual({ kind: 'hangup' });
    expect(turns).toEqual([`agent: Transfer to ${referTo} failed (no answer to REFER)`]);
  });
});

describe('transfer node with mode: bridge', () => {
  const bridgeFlow: AgentFlowDocument = {
    start: 'xfer',
    nodes: {
      xfer: { type: 'transfer', to: '+15550100', mode: 'bridge', timeout_seconds: 12, on_error: 'sorry' },
      sorry: { type: 'say', text: 'Sales is {{transfer_error}}.', next: 'bye' },
      bye: { type: 'hangup' },
    },
  };

  it("dials the second leg with the node's ring timeout and ends the flow when the bridge has finished", async () => {
    const { d, turns } = deps({ accepted: false, referStatus: 0, referTo: '' });
    const dialled: Array<[string, number]> = [];
    let hangUp!: () => void;
    d.bridge = async (to, ringTimeoutMs) => {
      dialled.push([to, ringTimeoutMs]);
      return { connected: true, to, finished: new Promise<void>((resolve) => (hangUp = resolve)) };
    };
    const flowEnd = runAgentFlow(bridgeFlow, {}, d);
    let settled = false;
    void flowEnd.then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false); // the flow holds the call while the two parties talk
    hangUp();
    await expect(flowEnd).resolves.toEqual({ kind: 'bridged', to: '+15550100' });
    expect(dialled).toEqual([['+15550100', 12_000]]);
    expect(turns).toEqual(['agent: Bridged to +15550100']);
  });

  it('a second leg that fails sets transfer_error and follows on_error', async () => {
    const { d, turns, targets } = deps({ accepted: true, referStatus: 202, referTo: '' });
    d.bridge = async (to) => ({ connected: false, to, reason: 'busy' });
    const variables: Record<string, unknown> = {};
    await expect(runAgentFlow(bridgeFlow, variables, d)).resolves.toEqual({ kind: 'hangup' });
    expect(variables.transfer_error).toBe('busy');
    expect(turns).toEqual(['agent: Bridge to +15550100 failed (busy)', 'agent: Sales is busy.']);
    expect(targets).toEqual([]); // no REFER
  });

  it('without on_error a failed bridge hangs up; the ring timeout defaults to 30 s', async () => {
    const { d } = deps({ accepted: true, referStatus: 202, referTo: '' });
    const timeouts: number[] = [];
    d.bridge = async (to, ringTimeoutMs) => {
      timeouts.push(ringTimeoutMs);
      return { connected: false, to, reason: 'no_answer' };
    };
    const flow: AgentFlowDocument = { start: 'xfer', nodes: { xfer: { type: 'transfer', to: '+15550100', mode: 'bridge' } } };
    await expect(runAgentFlow(flow, {}, d)).resolves.toEqual({ kind: 'hangup' });
    expect(timeouts).toEqual([30_000]);
  });
});
