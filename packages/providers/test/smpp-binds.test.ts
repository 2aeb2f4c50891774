import type { OutboundMessage, SendAccepted, SmsAdapter } from '../src/provider.types';
import { createSmppBindsAdapter } from '../src/sms/smpp-binds.adapter';

/** The choice of bind only: the SMPP side of each bind is covered against carrier-sim (services/dispatcher/test/smpp-binds.int.test.ts). */
function bind(name: string, bound: { up: boolean }) {
  const sent: string[] = [];
  const adapter: SmsAdapter & { isBound(): boolean } = {
    send: async (m: OutboundMessage): Promise<SendAccepted> => {
      sent.push(m.clientRef);
      return { upstreamMessageId: `${name}-${m.clientRef}`, parts: 1, partIds: [`${name}-${m.clientRef}`] };
    },
    onReceipt: () => undefined,
    onInbound: () => undefined,
    ready: async () => undefined,
    close: async () => undefined,
    isBound: () => bound.up,
  };
  return { adapter, sent };
}

const message = (i: number): OutboundMessage => ({ clientRef: `m${i}`, to: '+447911123410', from: '+14155550100', content: { kind: 'text', text: 'hi' } });

describe('SMPP binds adapter', () => {
  it('sends to the binds in turn and skips one that is down while another is up', async () => {
    const state = [{ up: true }, { up: false }, { up: true }];
    const binds = state.map((s, i) => bind(`b${i}`, s));
    const adapter = createSmppBindsAdapter(binds.map((b) => b.adapter));
    for (let i = 0; i < 6; i += 1) await adapter.send(message(i));
    expect(binds.map((b) => b.sent)).toEqual([['m0', 'm2', 'm4'], [], ['m1', 'm3', 'm5']]);
    state[1].up = true;
    for (let i = 6; i < 9; i += 1) await adapter.send(message(i));
    expect(binds.map((b) => b.sent.length)).toEqual([4, 1, 4]);
  });

  it('with every bind down, still hands the send to one, whose window waits for its bind', async () => {
    const binds = [bind('b0', { up: false }), bind('b1', { up: false })];
    const adapter = createSmppBindsAdapter(binds.map((b) => b.adapter));
    await adapter.send(message(0));
    await adapter.send(message(1));
    expect(binds.map((b) => b.sent)).toEqual([['m0'], ['m1']]);
  });
});
