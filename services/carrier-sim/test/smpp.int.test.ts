import * as smpp from 'smpp';
import type { PDU, Session } from 'smpp';
import { SANDBOX_CREDENTIALS } from '@switchboard/runtime';
import { buildSim, startSim, type RunningSim } from './support/sim-process';

jest.setTimeout(30_000);

const SYSTEM_ID = SANDBOX_CREDENTIALS.smpp.systemId;
const PASSWORD = SANDBOX_CREDENTIALS.smpp.password;

let sim: RunningSim;
const openSessions: Session[] = [];

beforeAll(async () => {
  await buildSim();
  sim = await startSim({}, { receipt_delay_ms: 50 });
});

afterEach(() => {
  for (const session of openSessions.splice(0)) session.destroy();
});

afterAll(async () => {
  await sim?.stop();
});

interface Esme {
  session: Session;
  delivered: PDU[];
  waitForDeliver(predicate: (pdu: PDU) => boolean, timeoutMs?: number): Promise<PDU>;
  call(command: string, options?: Record<string, unknown>): Promise<PDU>;
}

async function connectEsme(): Promise<Esme> {
  const session = smpp.connect({ url: `smpp://127.0.0.1:${sim.smppPort}` });
  openSessions.push(session);
  session.on('error', () => undefined);
  await new Promise<void>((resolve) => session.once('connect', () => resolve()));
  const delivered: PDU[] = [];
  const waiters: Array<[(pdu: PDU) => boolean, (pdu: PDU) => void]> = [];
  session.on('deliver_sm', (pdu: PDU) => {
    delivered.push(pdu);
    session.send(pdu.response());
    for (const waiter of [...waiters])
      if (waiter[0](pdu)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter[1](pdu);
      }
  });
  return {
    session,
    delivered,
    call: (command, options = {}) => new Promise((resolve) => (session as any)[command](options, resolve)),
    waitForDeliver(predicate, timeoutMs = 5000) {
      const found = delivered.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching deliver_sm; got ${delivered.length}`)), timeoutMs);
        waiters.push([predicate, (pdu) => (clearTimeout(timer), resolve(pdu))]);
      });
    },
  };
}

async function boundEsme(): Promise<Esme> {
  const esme = await connectEsme();
  const bind = await esme.call('bind_transceiver', { system_id: SYSTEM_ID, password: PASSWORD });
  expect(bind.command_status).toBe(0);
  return esme;
}

const submit = (esme: Esme, to: string, text: unknown, reference: number, extra: Record<string, unknown> = {}) =>
  esme.call('submit_sm', {
    source_addr_ton: 1,
    source_addr_npi: 1,
    source_addr: '15550001000',
    dest_addr_ton: 1,
    dest_addr_npi: 1,
    destination_addr: to,
    registered_delivery: 1,
    data_coding: 0,
    short_message: text,
    user_message_reference: reference,
    ...extra,
  });

const messageText = (pdu: PDU) => {
  const decoded = (pdu.message_payload ?? pdu.short_message) as { message: string };
  return decoded.message;
};

const sends = async (query: string): Promise<any[]> => ((await (await fetch(`${sim.httpUrl}/sim/sends?${query}`)).json()) as any).data;

describe('sms (SMPP v3.4 SMSC)', () => {
  it('refuses a bind with a wrong password and a submit before bind', async () => {
    const unbound = await connectEsme();
    expect((await submit(unbound, '15550000100', 'x', 1)).command_status).toBe(smpp.ESME_RINVBNDSTS);
    const bad = await connectEsme();
    const closed = new Promise<void>((resolve) => bad.session.once('close', () => resolve()));
    expect((await bad.call('bind_transceiver', { system_id: SYSTEM_ID, password: 'wrong' })).command_status).toBe(smpp.ESME_RBINDFAIL);
    await closed;
  });

  it('accepts a submit_sm and sends a receipt with user_message_reference echoed', async () => {
    const esme = await boundEsme();
    expect((await esme.call('enquire_link')).command_status).toBe(0);
    const resp = await submit(esme, '15550000100', 'Your code is 1234', 4242);
    expect(resp.command_status).toBe(0);
    const messageId = String(resp.message_id);
    expect(messageId).not.toBe('');

    const receipt = await esme.waitForDeliver((pdu) => pdu.receipted_message_id === messageId);
    expect(receipt.esm_class).toBe(smpp.ESM_CLASS.MC_DELIVERY_RECEIPT);
    expect(receipt.user_message_reference).toBe(4242);
    expect(receipt.message_state).toBe(smpp.MESSAGE_STATE.DELIVERED);
    expect(receipt.source_addr).toBe('15550000100');
    expect(receipt.destination_addr).toBe('15550001000');
    expect(messageText(receipt)).toMatch(
      new RegExp(`^id:${messageId} sub:001 dlvrd:001 submit date:\\d{10} done date:\\d{10} stat:DELIVRD err:000 text:Your code is 1234$`),
    );

    expect(await sends('channel=sms&client_ref=4242')).toEqual([
      expect.objectContaining({
        outcome: 'accepted',
        upstream_message_id: messageId,
        to: '+15550000100',
        from: '+15550001000',
        text: 'Your code is 1234',
        parts: 1,
      }),
    ]);
    expect((await esme.call('unbind')).command_status).toBe(0);
  });

  it('rejects 03 with ESME_RINVDSTADR and throttles 05 three times before accepting', async () => {
    const esme = await boundEsme();
    expect((await submit(esme, '15550000103', 'x', 3)).command_status).toBe(smpp.ESME_RINVDSTADR);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await submit(esme, '15550000105', 'x', 50 + i)).command_status);
    expect(statuses).toEqual([smpp.ESME_RTHROTTLED, smpp.ESME_RTHROTTLED, smpp.ESME_RTHROTTLED, 0]);
    const attempts = await sends('channel=sms&to=%2B15550000105');
    expect(attempts.map((a) => a.outcome)).toEqual(['throttled', 'throttled', 'throttled', 'accepted']);
    expect(attempts[0].error_code).toBe('ESME_RTHROTTLED');
  });

  it('counts UDH-concatenated parts as one message', async () => {
    const esme = await boundEsme();
    const udh = (seq: number) => Buffer.from([0x05, 0x00, 0x03, 0x2a, 0x02, seq]);
    const first = await submit(esme, '15550000120', { udh: udh(1), message: 'Part one, ' }, 77);
    const second = await submit(esme, '15550000120', { udh: udh(2), message: 'part two.' }, 77);
    expect([first.command_status, second.command_status]).toEqual([0, 0]);
    const recorded = await sends('channel=sms&to=15550000120');
    expect(recorded).toEqual([expect.objectContaining({ outcome: 'accepted', parts: 2, text: 'Part one, part two.', client_ref: '77' })]);
    await esme.waitForDeliver((pdu) => pdu.receipted_message_id === second.message_id);
  });

  it('holds a receipt whose session is gone until the ESME binds again', async () => {
    const first = await boundEsme();
    const resp = await submit(first, '15550000130', 'held receipt', 9);
    first.session.destroy();
    await new Promise((resolve) => setTimeout(resolve, 150));
    const second = await boundEsme();
    const receipt = await second.waitForDeliver((pdu) => pdu.receipted_message_id === resp.message_id);
    expect(receipt.user_message_reference).toBe(9);
  });

  it('delivers a mobile-originated message pushed through /sim/inbound', async () => {
    const esme = await boundEsme();
    const res = await fetch(`${sim.httpUrl}/sim/inbound`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ channel: 'sms', from: '+15550000100', to: '+15550001000', text: 'STOP' }),
    });
    expect(res.status).toBe(202);
    const mo = await esme.waitForDeliver((pdu) => pdu.esm_class === 0);
    expect(mo.source_addr).toBe('15550000100');
    expect(mo.destination_addr).toBe('15550001000');
    expect(messageText(mo)).toBe('STOP');
  });
});
