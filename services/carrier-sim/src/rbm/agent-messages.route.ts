import type { RequestHandler } from 'express';
import type { JsonAnswer, SendRequest } from '../http/json-answer';
import { isRcsCapable, reportPlan, sendVerdict } from '../behaviour/number-behaviour';
import type { Logger } from '../support/json-logger';
import type { Scheduler } from '../support/scheduler';
import { isoAt } from '../support/iso-time';
import type { SendLogStore, SendOutcome } from '../state/send-log.store';
import type { SimBehaviour } from '../state/sim-behaviour.store';
import type { RbmEventSender } from '../webhooks/rbm-event.sender';
import { validateAgentMessage } from './content-message.validator';
import { sendGoogleError, type GoogleStatus } from './google-errors';

export interface AgentMessagesDeps {
  sends: SendLogStore;
  events: RbmEventSender;
  scheduler: Scheduler;
  logger: Logger;
  /** Receipt delay and chat window, read at each send (docs/sandbox.md#behaviour-at-run-time). */
  behaviour: Readonly<SimBehaviour>;
  now: () => number;
}

/** Capabilities answered for every RCS-capable sandbox number, as a recent Android Messages client reports them. */
const FEATURES = [
  'RICHCARD_STANDALONE',
  'RICHCARD_CAROUSEL',
  'ACTION_CREATE_CALENDAR_EVENT',
  'ACTION_DIAL',
  'ACTION_OPEN_URL',
  'ACTION_SHARE_LOCATION',
  'ACTION_VIEW_LOCATION',
];

const E164 = /^\+\d{6,15}$/;

function queryText(req: SendRequest, name: string): string | undefined {
  const value = req.query[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Checks shared by both endpoints; answers and returns false when the request is unusable. */
function checkAddressing(req: SendRequest, res: JsonAnswer, required: string[]): boolean {
  const phone = String(req.params.phone);
  if (!E164.test(phone)) {
    sendGoogleError(res, 'INVALID_ARGUMENT', `Invalid phone number "${phone}": expected E.164 with a leading +.`);
    return false;
  }
  for (const name of required) {
    if (!queryText(req, name)) {
      sendGoogleError(res, 'INVALID_ARGUMENT', `Request contains an invalid argument: ${name} is required.`);
      return false;
    }
  }
  return true;
}

export function createAgentMessageHandlers(deps: AgentMessagesDeps): { capabilities: RequestHandler; send: (req: SendRequest, res: JsonAnswer) => void } {
  const capabilities: RequestHandler = (req, res) => {
    if (!checkAddressing(req, res, ['requestId', 'agentId'])) return;
    const phone = String(req.params.phone);
    if (!isRcsCapable(phone)) {
      sendGoogleError(res, 'NOT_FOUND', 'Requested entity was not found.');
      return;
    }
    res.json({ features: FEATURES });
  };

  const scheduleEvents = (phone: string, messageId: string, agentId: string) => {
    const plan = reportPlan('rcs', phone);
    if (!plan.delivered) return;
    deps.scheduler.after(deps.behaviour.receiptDelayMs, () => {
      deps.events.sendEvent({ phone, eventType: 'DELIVERED', messageId, agentId });
      if (plan.read) deps.scheduler.after(deps.behaviour.receiptDelayMs, () => deps.events.sendEvent({ phone, eventType: 'READ', messageId, agentId }));
    });
  };

  const send = (req: SendRequest, res: JsonAnswer): void => {
    if (!checkAddressing(req, res, ['messageId', 'agentId'])) return;
    const phone = String(req.params.phone);
    const messageId = queryText(req, 'messageId') as string;
    const agentId = queryText(req, 'agentId') as string;
    const validation = validateAgentMessage(req.body);
    const record = (outcome: SendOutcome, errorCode: GoogleStatus | null) =>
      deps.sends.add({
        channel: 'rcs',
        to: phone,
        from: agentId,
        type: validation.ok ? validation.message.type : 'unknown',
        text: validation.ok ? validation.message.text : null,
        client_ref: messageId,
        upstream_message_id: outcome === 'accepted' ? `phones/${phone}/agentMessages/${messageId}` : null,
        outcome,
        error_code: errorCode,
        parts: 1,
        at: isoAt(deps.now()),
      });
    const refuse = (status: GoogleStatus, outcome: SendOutcome, message: string) => {
      record(outcome, status);
      sendGoogleError(res, status, message);
      deps.logger.debug('rbm send refused', { to: phone, status, message_id: messageId });
    };

    if (!validation.ok) return refuse('INVALID_ARGUMENT', 'rejected', validation.details);
    // RBM's own idempotency: a messageId it already accepted for this agent is refused, not resent.
    if (deps.sends.acceptedByClientRef('rcs', messageId)?.from === agentId) {
      return refuse('ALREADY_EXISTS', 'rejected', `Message with id ${messageId} already exists.`);
    }
    const verdict = sendVerdict('rcs', phone, deps.sends.throttledSinceAccepted('rcs', phone));
    if (verdict === 'not_rcs_capable') return refuse('NOT_FOUND', 'rejected', 'Requested entity was not found.');
    if (verdict === 'reject')
      return refuse('INVALID_ARGUMENT', 'rejected', 'Request contains an invalid argument: the recipient cannot receive agent messages.');
    if (verdict === 'throttle') return refuse('RESOURCE_EXHAUSTED', 'throttled', 'Quota exceeded for quota metric agent messages per minute.');

    record('accepted', null);
    res.json({
      name: `phones/${phone}/agentMessages/${messageId}`,
      sendTime: isoAt(deps.now()),
      contentMessage: validation.message.contentMessage,
    });
    deps.logger.debug('rbm send accepted', { to: phone, message_id: messageId, agent_id: agentId });
    scheduleEvents(phone, messageId, agentId);
  };

  return { capabilities, send };
}
