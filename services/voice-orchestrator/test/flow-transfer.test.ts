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
    transcript: async (speaker, text) => void turns.push(`${speaker}: ${text}`),
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

const flow = (onError?: string) => ({
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
