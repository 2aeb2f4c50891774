import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as smpp from 'smpp';
import type { PDU, Session } from 'smpp';
import { SANDBOX_CREDENTIALS } from '@switchboard/runtime';
import { buildSim, startSim, type RunningSim } from './support/sim-process';

// Back-pressure when the receiver of the reports is slower than the sends (docs/sandbox.md#receipts-under-load):
// past receipt_backlog_max reports owed (PUT /sim/behaviour), a send is answered only once the receiver has caught up, and
// no report is lost on the way.
jest.setTimeout(60_000);

const MAX_BACKLOG = 4;
/** Long enough that a send admitted at once is surely answered, even on a loaded machine. */
const ANSWER_WITHIN_MS = 3000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const within = <T>(promise: Promise<T>, ms: number): Promise<T | 'no answer'> => Promise.race([promise, sleep(ms).then(() => 'no answer' as const)]);

/** A webhook receiver that reads every request and answers none until released. */
function stallingReceiver() {
  const held: ServerResponse[] = [];
  let released = false;
  let events = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      events += 1;
      if (released) res.end('ok');
      else held.push(res);
    });
  });
  return {
    listen: () => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))),
    release() {
      released = true;
      for (const res of held.splice(0)) res.end('ok');
    },
    events: () => events,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let sim: RunningSim;
const receiver = stallingReceiver();

beforeAll(async () => {
  await buildSim();
  const url = await receiver.listen();
  sim = await startSim({ SIM_GATEWAY_URL: url }, { receipt_backlog_max: MAX_BACKLOG, receipt_delay_ms: 0 });
});

afterAll(async () => {
  await sim?.stop();
  await receiver.close();
});

const rbmSend = (n: number) =>
  // Numbers ending 10..89: delivered, then read (docs/sandbox.md).
  fetch(`${sim.httpUrl}/v1/phones/${encodeURIComponent(`+15550002${10 + (n % 80)}`)}/agentMessages?messageId=bp-${n}&agentId=bp-agent`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sandbox-rbm-token' },
    body: JSON.stringify({ contentMessage: { text: `n${n}` } }),
  }).then((r) => r.status);

describe('reports owed to a slow receiver', () => {
  it('holds RBM sends past the backlog maximum and answers them once the receiver catches up, losing no event', async () => {
    let sent = 0;
    let held: Promise<number> | null = null;
    // 64 events can be in flight and MAX_BACKLOG more waiting; every send owes two (DELIVERED, READ).
    while (sent < 100) {
      const answer = rbmSend(sent);
      sent += 1;
      const result = await within(answer, ANSWER_WITHIN_MS);
      if (result === 'no answer') {
        held = answer;
        break;
      }
      expect(result).toBe(200);
    }
    expect(held).not.toBeNull();
    expect(sent).toBeLessThanOrEqual(Math.ceil((64 + MAX_BACKLOG) / 2) + 2);

    receiver.release();
    expect(await held).toBe(200);
    while (receiver.events() < sent * 2) await sleep(50);
    await sleep(300);
    expect(receiver.events()).toBe(sent * 2);
  });

  it('answers submit_sm late while an ESME leaves receipts unanswered, and goes on once it answers them', async () => {
    const session: Session = smpp.connect({ url: `smpp://127.0.0.1:${sim.smppPort}`, auto_enquire_link_period: 0 });
    session.on('error', () => undefined);
    await new Promise<void>((resolve, reject) =>
      session.bind_transceiver({ system_id: SANDBOX_CREDENTIALS.smpp.systemId, password: SANDBOX_CREDENTIALS.smpp.password }, (pdu: PDU) =>
        pdu.command_status === 0 ? resolve() : reject(new Error(`bind ${pdu.command_status}`)),
      ),
    );
    const unanswered: PDU[] = [];
    let answering = false;
    session.on('deliver_sm', (pdu: PDU) => {
      if (answering) session.send(pdu.response());
      else unanswered.push(pdu);
    });
    const submit = (n: number) =>
      new Promise<PDU>((resolve) =>
        session.submit_sm({ source_addr: '15550100', destination_addr: `15550203${10 + n}`, short_message: `n${n}`, registered_delivery: 1 }, resolve),
      );

    let sent = 0;
    let held: Promise<PDU> | null = null;
    while (sent < 50) {
      const answer = submit(sent);
      sent += 1;
      const result = await within(answer, ANSWER_WITHIN_MS);
      if (result === 'no answer') {
        held = answer;
        break;
      }
      expect(result.command_status).toBe(0);
    }
    expect(held).not.toBeNull();
    // The last receipt may not be written yet when the next submit arrives: one more may pass.
    expect(sent).toBeGreaterThanOrEqual(MAX_BACKLOG + 1);
    expect(sent).toBeLessThanOrEqual(MAX_BACKLOG + 2);

    answering = true;
    for (const pdu of unanswered.splice(0)) session.send(pdu.response());
    expect((await held!).command_status).toBe(0);
    session.destroy();
  });
});
