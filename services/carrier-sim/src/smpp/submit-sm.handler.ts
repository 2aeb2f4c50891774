import * as smpp from 'smpp';
import type { DecodedMessage, PDU, Session } from 'smpp';
import { reportPlan, sendVerdict } from '../behaviour/number-behaviour';
import type { Logger } from '../support/json-logger';
import type { Scheduler } from '../support/scheduler';
import { newSmscMessageId } from '../support/upstream-ids';
import { isoAt } from '../support/iso-time';
import { toE164, type SendLogStore, type SendOutcome, type SendRecord } from '../state/send-log.store';
import { concatFromSar, concatFromUdh, type ConcatPart } from './concat-parts';
import { faultVerdict, type FaultSwitchStore } from '../state/fault-switch.store';
import type { SimBehaviour } from '../state/sim-behaviour.store';
import type { SmsReceiptPlanStore } from '../state/sms-receipt-plan.store';
import type { EsmeSessions } from './esme-sessions';
import { formatReceiptText, type ReceiptStat } from './receipt-text';
import { parseValidityPeriod } from './validity-period';

export interface SubmitSmDeps {
  sends: SendLogStore;
  sessions: EsmeSessions;
  /** Part receipts a test holds back and releases in its own order (docs/sandbox.md#multi-part-sms-receipts). */
  receiptPlans?: SmsReceiptPlanStore;
  scheduler: Scheduler;
  logger: Logger;
  /** Receipt delay and chat window, read at each send (docs/sandbox.md#behaviour-at-run-time). */
  behaviour: Readonly<SimBehaviour>;
  now: () => number;
  /** Run-time faults (docs/sandbox.md#faults-at-run-time); none when absent. */
  faults?: FaultSwitchStore;
}

/** One attempt at sending a (possibly multi-part) message: every part shares its verdict and record. */
interface Attempt {
  outcome: SendOutcome;
  status: number;
  record: SendRecord;
  partsSeen: Set<number>;
  texts: Map<number, string>;
  startedAt: number;
}

/** Parts of a long message that never complete are forgotten after this long. */
const STALE_ATTEMPT_MS = 10 * 60 * 1000;

const STATUS_NAME: Record<number, string> = {
  [smpp.ESME_RINVDSTADR]: 'ESME_RINVDSTADR',
  [smpp.ESME_RTHROTTLED]: 'ESME_RTHROTTLED',
};

const ESME_RSYSERR = 0x08;

function textOf(pdu: PDU): string {
  const decoded = (pdu.message_payload ?? pdu.short_message) as DecodedMessage | Buffer | undefined;
  const message = decoded && !Buffer.isBuffer(decoded) ? decoded.message : decoded;
  if (message === undefined) return '';
  return typeof message === 'string' ? message : message.toString('utf8');
}

function concatOf(pdu: PDU): ConcatPart | null {
  const decoded = pdu.short_message as DecodedMessage | undefined;
  const udh = decoded && !Buffer.isBuffer(decoded) ? decoded.udh : undefined;
  return concatFromUdh(udh) ?? concatFromSar(pdu as never);
}

export function createSubmitSmHandler(deps: SubmitSmDeps): (session: Session, systemId: string, pdu: PDU) => void {
  const attempts = new Map<string, Attempt>();

  const startAttempt = (pdu: PDU, to: string, from: string, parts: number): Attempt => {
    const verdict = sendVerdict('sms', to, deps.sends.throttledSinceAccepted('sms', to));
    const outcome: SendOutcome = verdict === 'reject' ? 'rejected' : verdict === 'throttle' ? 'throttled' : 'accepted';
    const status = verdict === 'reject' ? smpp.ESME_RINVDSTADR : verdict === 'throttle' ? smpp.ESME_RTHROTTLED : smpp.ESME_ROK;
    const umr = pdu.user_message_reference;
    const record = deps.sends.add({
      channel: 'sms',
      to,
      from,
      type: 'text',
      text: '',
      client_ref: typeof umr === 'number' ? String(umr) : null,
      upstream_message_id: null,
      outcome,
      error_code: status === smpp.ESME_ROK ? null : STATUS_NAME[status],
      parts,
      at: isoAt(deps.now()),
    });
    return { outcome, status, record, partsSeen: new Set(), texts: new Map(), startedAt: deps.now() };
  };

  /** A repeated part number means the ESME is retrying the whole message: that is a new attempt. */
  const attemptFor = (key: string, pdu: PDU, to: string, from: string, part: ConcatPart): Attempt => {
    for (const [k, a] of attempts) if (deps.now() - a.startedAt > STALE_ATTEMPT_MS) attempts.delete(k);
    const current = attempts.get(key);
    if (current && !current.partsSeen.has(part.seq)) return current;
    const fresh = startAttempt(pdu, to, from, part.total);
    attempts.set(key, fresh);
    return fresh;
  };

  const scheduleReceipt = (session: Session, systemId: string, pdu: PDU, messageId: string, text: string, part: ConcatPart | null) => {
    if (!reportPlan('sms', String(pdu.destination_addr)).delivered) return;
    const submittedAt = new Date(deps.now());
    const deliver = (stat: ReceiptStat) => {
      const options: Record<string, unknown> = {
        source_addr_ton: pdu.dest_addr_ton,
        source_addr_npi: pdu.dest_addr_npi,
        source_addr: pdu.destination_addr,
        dest_addr_ton: pdu.source_addr_ton,
        dest_addr_npi: pdu.source_addr_npi,
        destination_addr: pdu.source_addr,
        esm_class: smpp.ESM_CLASS.MC_DELIVERY_RECEIPT,
        data_coding: 0,
        short_message: formatReceiptText({ messageId, submittedAt, doneAt: new Date(deps.now()), stat, err: stat === 'DELIVRD' ? 0 : 1, text }),
        receipted_message_id: messageId,
        message_state: stat === 'DELIVRD' ? smpp.MESSAGE_STATE.DELIVERED : smpp.MESSAGE_STATE.UNDELIVERABLE,
      };
      if (typeof pdu.user_message_reference === 'number') options.user_message_reference = pdu.user_message_reference;
      deps.sessions.deliver(systemId, session, options, 'receipt');
    };
    const to = toE164(String(pdu.destination_addr));
    if (part && deps.receiptPlans?.hold(to, part.seq, deliver)) return;
    deps.scheduler.after(deps.behaviour.receiptDelayMs, () => deliver('DELIVRD'));
  };

  const handle = (session: Session, systemId: string, pdu: PDU) => {
    // node-smpp decodes both addresses, C-octet strings, as strings.
    const destination = typeof pdu.destination_addr === 'string' ? pdu.destination_addr.replace(/^\+/, '') : '';
    if (!/^\d{6,15}$/.test(destination)) {
      session.send(pdu.response({ command_status: smpp.ESME_RINVDSTADR }));
      return;
    }
    const to = toE164(destination);
    const from = toE164(typeof pdu.source_addr === 'string' ? pdu.source_addr : '');
    const text = textOf(pdu);
    const part = concatOf(pdu);
    let attempt: Attempt;
    if (part) {
      const key = [systemId, from, to, part.reference, part.total].join('|');
      attempt = attemptFor(key, pdu, to, from, part);
      attempt.partsSeen.add(part.seq);
      attempt.texts.set(part.seq, text);
      attempt.record.text = [...attempt.texts]
        .sort(([a], [b]) => a - b)
        .map(([, t]) => t)
        .join('');
      if (attempt.partsSeen.size >= part.total) attempts.delete(key);
    } else {
      attempt = startAttempt(pdu, to, from, 1);
      attempt.record.text = text;
    }

    if (attempt.outcome !== 'accepted') {
      session.send(pdu.response({ command_status: attempt.status }));
      deps.logger.debug('submit_sm refused', { to, status: STATUS_NAME[attempt.status], client_ref: attempt.record.client_ref });
      return;
    }
    // Parsed so a malformed value is visible in the log; the simulator delivers well within any validity.
    const validity = parseValidityPeriod(pdu.validity_period, deps.now());
    if (validity.kind === 'invalid') {
      session.send(pdu.response({ command_status: smpp.ESME_RINVEXPIRY }));
      deps.logger.debug('submit_sm refused', { to, status: 'ESME_RINVEXPIRY', validity_period: pdu.validity_period });
      return;
    }
    if (validity.kind === 'relative') attempt.record.validity_seconds ??= validity.seconds;
    const messageId = newSmscMessageId();
    attempt.record.upstream_message_id ??= messageId;
    session.send(pdu.response({ message_id: messageId }));
    deps.logger.debug('submit_sm accepted', {
      to,
      message_id: messageId,
      part: part?.seq ?? 1,
      parts: part?.total ?? 1,
      validity_seconds: validity.kind === 'relative' ? validity.seconds : undefined,
    });
    scheduleReceipt(session, systemId, pdu, messageId, text, part);
  };

  // A faulty SMSC refuses before anything is logged as sent, so the send log only holds what it took.
  return (session, systemId, pdu) => {
    const fault = deps.faults?.current('sms') ?? null;
    const verdict = faultVerdict(fault);
    if (verdict === 'refuse') {
      session.send(pdu.response({ command_status: ESME_RSYSERR }));
      deps.logger.info('submit_sm refused by a run-time fault', { mode: fault?.mode, status: 'ESME_RSYSERR' });
      return;
    }
    if (fault && verdict === 'delay') {
      deps.scheduler.after(fault.delayMs, () => handle(session, systemId, pdu));
      return;
    }
    handle(session, systemId, pdu);
  };
}
