import type { AddressInfo } from 'node:net';
import * as smpp from 'smpp';
import type { PDU, Session } from 'smpp';
import type { Logger } from '../support/json-logger';
import { newSmscMessageId } from '../support/upstream-ids';
import type { BindMode, EsmeSessions } from './esme-sessions';
import { coalesceWritesPerTurn } from './coalesced-writes';
import type { SendGate } from '../support/send-gate';

export interface SmscServer {
  listen(port: number, host: string): Promise<number>;
  /** Queues a mobile-originated message (deliver_sm, esm_class 0) for the ESME; returns the SMSC's id for it. */
  deliverMobileOriginated(message: { from: string; to: string; text: string }): string;
  close(): Promise<void>;
}

/** The SMSC probes each bound ESME every 30 s with enquire_link, as SMSCs commonly do, so a dead bind is noticed. */
export const ENQUIRE_LINK_MS = 30_000;

export interface SmscServerDeps {
  systemId: string;
  password: string;
  enquireLinkMs: number;
  sessions: EsmeSessions;
  handleSubmit: (session: Session, systemId: string, pdu: PDU) => void;
  /** Holds submit_sm back while ESMEs are slow to answer their receipts (docs/sandbox.md#receipts-under-load). */
  gate: SendGate;
  logger: Logger;
}

const BIND_MODES: Record<string, BindMode> = {
  bind_transceiver: 'transceiver',
  bind_transmitter: 'transmitter',
  bind_receiver: 'receiver',
};

/** Texts longer than one unconcatenated SMS travel in message_payload, which SMPP 3.4 allows in deliver_sm. */
const SHORT_MESSAGE_LIMIT = { gsm: 160, ucs2: 70 };

export function createSmscServer(deps: SmscServerDeps): SmscServer {
  const probes = new Map<Session, NodeJS.Timeout>();

  const unsupported = (session: Session, pdu: PDU) =>
    session.send(new smpp.PDU('generic_nack', { sequence_number: pdu.sequence_number, command_status: smpp.ESME_RINVCMDID }));

  const onBind = (session: Session, pdu: PDU, mode: BindMode) => {
    if (deps.sessions.bindingOf(session)) {
      session.send(pdu.response({ command_status: smpp.ESME_RALYBND }));
      return;
    }
    if (pdu.system_id !== deps.systemId || pdu.password !== deps.password) {
      deps.logger.warn('smpp bind refused', { system_id: String(pdu.system_id), mode });
      session.send(pdu.response({ command_status: smpp.ESME_RBINDFAIL }), undefined, () => session.close());
      return;
    }
    session.send(pdu.response({ system_id: 'carrier-sim' }));
    deps.sessions.bind(session, { systemId: deps.systemId, mode });
    deps.logger.info('smpp bound', { system_id: deps.systemId, mode });
    if (deps.enquireLinkMs > 0) {
      const probe = setInterval(() => session.enquire_link(), deps.enquireLinkMs);
      probe.unref();
      probes.set(session, probe);
    }
  };

  const onPdu = (session: Session, pdu: PDU) => {
    if (pdu.isResponse()) return; // deliver_sm_resp and enquire_link_resp are handled by their send callbacks
    const bindMode = BIND_MODES[pdu.command];
    if (bindMode) return onBind(session, pdu, bindMode);
    const binding = deps.sessions.bindingOf(session);
    switch (pdu.command) {
      case 'enquire_link':
        session.send(pdu.response());
        return;
      case 'unbind':
        deps.sessions.drop(session);
        session.send(pdu.response(), undefined, () => session.close());
        return;
      case 'submit_sm':
        if (!binding || binding.mode === 'receiver') {
          session.send(pdu.response({ command_status: smpp.ESME_RINVBNDSTS }));
          return;
        }
        // A held submit_sm is answered late, which the ESME's window turns into sending less. The session is
        // not paused: the deliver_sm_resp that drain the backlog arrive on it too.
        deps.gate.admit(() => deps.handleSubmit(session, binding.systemId, pdu));
        return;
      case 'unknown':
        session.send(pdu.response());
        return;
      default:
        unsupported(session, pdu);
    }
  };

  const server = smpp.createServer((session: Session) => {
    coalesceWritesPerTurn(session);
    session.on('pdu', (pdu: PDU) => {
      try {
        onPdu(session, pdu);
      } catch (err) {
        deps.logger.error('smpp pdu handling failed', { command: pdu.command, error: String(err) });
        if (!pdu.isResponse()) session.send(pdu.response({ command_status: smpp.ESME_RSYSERR }));
      }
    });
    session.on('error', (err: Error) => deps.logger.debug('smpp session error', { error: err.message }));
    session.on('close', () => {
      const probe = probes.get(session);
      if (probe) clearInterval(probe);
      probes.delete(session);
      deps.sessions.drop(session);
    });
  });

  return {
    listen(port, host) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          server.on('error', (err: Error) => deps.logger.error('smpp server error', { error: err.message }));
          resolve((server.address() as AddressInfo).port);
        });
      });
    },
    deliverMobileOriginated({ from, to, text }) {
      const gsm = smpp.encodings.ASCII.match(text);
      const long = text.length > (gsm ? SHORT_MESSAGE_LIMIT.gsm : SHORT_MESSAGE_LIMIT.ucs2);
      const options: Record<string, unknown> = {
        source_addr_ton: 1,
        source_addr_npi: 1,
        source_addr: from.replace(/^\+/, ''),
        dest_addr_ton: 1,
        dest_addr_npi: 1,
        destination_addr: to.replace(/^\+/, ''),
        esm_class: 0,
        data_coding: gsm ? 0 : 8,
        [long ? 'message_payload' : 'short_message']: text,
      };
      deps.sessions.deliver(deps.systemId, undefined, options, 'mo');
      return newSmscMessageId();
    },
    close() {
      for (const probe of probes.values()) clearInterval(probe);
      probes.clear();
      for (const session of [...server.sessions]) session.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
