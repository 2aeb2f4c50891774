import type { AddressInfo } from 'node:net';
import * as smpp from 'smpp';

/**
 * node-smpp decodes short_message on arrival, so the exact bytes an adapter put on the wire
 * are captured here by wrapping its stream reader (test-only; same logic as PDU.fromStream).
 */
const rawBytes = new WeakMap<smpp.PDU, Buffer>();
type PduStatics = { fromStream(stream: { read(n: number): Buffer | null }, length: number): smpp.PDU | false };
const statics = smpp.PDU as unknown as PduStatics;
statics.fromStream = (stream, length) => {
  const rest = stream.read(length - 4);
  if (!rest) return false;
  const head = Buffer.alloc(4);
  head.writeUInt32BE(length, 0);
  const raw = Buffer.concat([head, rest]);
  const pdu = new smpp.PDU(raw);
  rawBytes.set(pdu, raw);
  return pdu;
};

export interface SubmitSmBytes {
  sourceTon: number;
  sourceNpi: number;
  source: string;
  destTon: number;
  destNpi: number;
  destination: string;
  esmClass: number;
  registeredDelivery: number;
  dataCoding: number;
  shortMessage: Buffer;
  tlvs: Map<number, Buffer>;
}

/** Independent reading of submit_sm bytes (SMPP v3.4 §4.4.1), so the test does not trust node-smpp's decoder. */
export function readSubmitSmBytes(raw: Buffer): SubmitSmBytes {
  let offset = 16;
  const cstring = () => {
    const end = raw.indexOf(0, offset);
    const value = raw.toString('latin1', offset, end);
    offset = end + 1;
    return value;
  };
  const octet = () => raw[offset++];
  cstring(); // service_type
  const sourceTon = octet();
  const sourceNpi = octet();
  const source = cstring();
  const destTon = octet();
  const destNpi = octet();
  const destination = cstring();
  const esmClass = octet();
  octet(); // protocol_id
  octet(); // priority_flag
  cstring(); // schedule_delivery_time
  cstring(); // validity_period
  const registeredDelivery = octet();
  octet(); // replace_if_present_flag
  const dataCoding = octet();
  octet(); // sm_default_msg_id
  const length = octet();
  const shortMessage = raw.subarray(offset, offset + length);
  offset += length;
  const tlvs = new Map<number, Buffer>();
  while (offset + 4 <= raw.length) {
    const tag = raw.readUInt16BE(offset);
    const size = raw.readUInt16BE(offset + 2);
    tlvs.set(tag, raw.subarray(offset + 4, offset + 4 + size));
    offset += 4 + size;
  }
  return { sourceTon, sourceNpi, source, destTon, destNpi, destination, esmClass, registeredDelivery, dataCoding, shortMessage, tlvs };
}

export interface ReceivedSubmit {
  pdu: smpp.PDU;
  bytes: SubmitSmBytes;
  respond(answer: { command_status?: number; message_id?: string }): void;
}

export interface FakeSmsc {
  port: number;
  binds: smpp.PDU[];
  submits: ReceivedSubmit[];
  unbinds: number;
  enquireLinks: number;
  /** Decides each submit_sm_resp; return undefined to hold it (respond later through `submits`). */
  answerSubmit: (submit: ReceivedSubmit, index: number) => { command_status?: number; message_id?: string } | undefined;
  /** Sends a request to the bound ESME and resolves with its response. */
  request(command: string, options: Record<string, unknown>): Promise<smpp.PDU>;
  dropConnections(): void;
  waitFor(condition: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeSmsc(credentials = { systemId: 'esme', password: 'secret' }): Promise<FakeSmsc> {
  let nextId = 1;
  const fake: Omit<FakeSmsc, 'port'> & { port: number } = {
    port: 0,
    binds: [],
    submits: [],
    unbinds: 0,
    enquireLinks: 0,
    answerSubmit: () => ({ message_id: `smsc-${nextId++}` }),
    request: (command, options) =>
      new Promise((resolve, reject) => {
        const session = server.sessions[server.sessions.length - 1];
        if (!session) return reject(new Error('no ESME connected'));
        session.send(new smpp.PDU(command, options), resolve);
      }),
    dropConnections: () => [...server.sessions].forEach((session) => session.destroy()),
    waitFor: async (condition, timeoutMs = 3000) => {
      const deadline = Date.now() + timeoutMs;
      while (!condition()) {
        if (Date.now() > deadline) throw new Error('condition not met in time');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        [...server.sessions].forEach((session) => session.destroy());
        server.close(() => resolve());
      }),
  };

  const server = smpp.createServer((session) => {
    session.on('error', () => undefined);
    session.on('bind_transceiver', (pdu: smpp.PDU) => {
      fake.binds.push(pdu);
      const ok = pdu.system_id === credentials.systemId && pdu.password === credentials.password;
      session.send(pdu.response(ok ? { system_id: 'fake-smsc' } : { command_status: 0x0d }));
    });
    session.on('enquire_link', (pdu: smpp.PDU) => {
      fake.enquireLinks += 1;
      session.send(pdu.response());
    });
    session.on('unbind', (pdu: smpp.PDU) => {
      fake.unbinds += 1;
      session.send(pdu.response());
    });
    session.on('submit_sm', (pdu: smpp.PDU) => {
      const raw = rawBytes.get(pdu);
      if (!raw) throw new Error('raw bytes not captured');
      let answered = false;
      const submit: ReceivedSubmit = {
        pdu,
        bytes: readSubmitSmBytes(raw),
        respond: (answer) => {
          if (answered) return;
          answered = true;
          session.send(pdu.response(answer));
        },
      };
      fake.submits.push(submit);
      const answer = fake.answerSubmit(submit, fake.submits.length - 1);
      if (answer) submit.respond(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  fake.port = (server.address() as AddressInfo).port;
  return fake;
}
