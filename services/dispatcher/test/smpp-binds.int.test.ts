import { freePort, putSimBehaviour, startService, type ServiceProcess } from '@switchboard/devstack';
import type { UpstreamReceipt } from '@switchboard/domain';
import { createSmsAdapter, type OutboundMessage, type SmsAdapter } from '@switchboard/providers';

/**
 * Several transceiver binds to carrier-sim's SMSC (a real process over TCP): sends spread over the binds,
 * each bind keeps at most its window unacknowledged, and receipts come back whichever bind they arrive on.
 */
let sim: ServiceProcess;
let smppPort: number;
const adapters: SmsAdapter[] = [];

beforeAll(async () => {
  smppPort = await freePort();
  sim = await startService('carrier-sim', { SIM_SMPP_PORT: String(smppPort), LOG_LEVEL: 'warn' }, { readyTimeoutMs: 60_000 });
  await putSimBehaviour(sim.url, { receipt_delay_ms: 20 });
}, 90_000);

afterAll(async () => {
  await Promise.all(adapters.map((a) => a.close()));
  await sim?.stop();
});

function connect(binds: number, windowSize: number): SmsAdapter {
  const adapter = createSmsAdapter({
    config: {
      host: '127.0.0.1',
      port: smppPort,
      systemId: 'switchboard',
      password: 'sandbox',
      binds,
      windowSize,
      reconnectBaseMs: 50,
      reconnectMaxMs: 200,
      submitTimeoutMs: 20_000,
    },
  });
  adapters.push(adapter);
  return adapter;
}

/** Waits until every bind is up: ready() resolves with the first, and the test wants all of them in turn. */
async function allBound(adapter: SmsAdapter, binds: number) {
  await adapter.ready();
  for (let round = 0; round < 200; round += 1) {
    if ((await boundCount()) >= binds) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('binds did not come up');
}

async function boundCount(): Promise<number> {
  const { execFileSync } = await import('node:child_process');
  // Established TCP connections to the SMSC port from this process: one per bind.
  const out = execFileSync('ss', ['-Htn', 'state', 'established', `( dport = :${smppPort} )`]).toString();
  return out.split('\n').filter((line) => line.trim() !== '').length;
}

const message = (i: number): OutboundMessage => ({
  clientRef: `msg_bind_${i}`,
  attemptRef: i,
  // Last two digits 10..89: the simulator's plain "delivered, then read" numbers (docs/sandbox.md#sandbox-numbers).
  to: `+4479111200${10 + i}`,
  from: '+14155550100',
  content: { kind: 'text', text: `hello ${i}` },
});

describe('several SMPP binds to one SMSC', () => {
  it('opens the configured binds, spreads 24 concurrent sends with a window of 2 each, and gets every receipt', async () => {
    const adapter = connect(3, 2);
    const receipts: UpstreamReceipt[] = [];
    adapter.onReceipt(async (r) => {
      receipts.push(r);
    });
    await allBound(adapter, 3);
    expect(await boundCount()).toBe(3);

    const accepted = await Promise.all(Array.from({ length: 24 }, (_, i) => adapter.send(message(i))));

    const ids = accepted.map((a) => a.upstreamMessageId);
    expect(new Set(ids).size).toBe(24);
    for (let round = 0; round < 400 && new Set(receipts.map((r) => r.upstreamMessageId)).size < 24; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(new Set(receipts.filter((r) => r.status === 'delivered').map((r) => r.upstreamMessageId))).toEqual(new Set(ids));
    await adapter.close();
  }, 60_000);
});
