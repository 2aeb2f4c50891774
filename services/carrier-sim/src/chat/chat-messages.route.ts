import type { JsonAnswer, SendRequest } from '../http/json-answer';
import { reportPlan, sendVerdict } from '../behaviour/number-behaviour';
import type { Logger } from '../support/json-logger';
import type { Scheduler } from '../support/scheduler';
import { isoAt } from '../support/iso-time';
import { newWamid } from '../support/upstream-ids';
import type { ChatWindowStore } from '../state/chat-window.store';
import { toE164, type SendLogStore, type SendOutcome } from '../state/send-log.store';
import type { SimBehaviour } from '../state/sim-behaviour.store';
import type { TemplateStore } from '../state/template.store';
import type { ChatWebhookSender } from '../webhooks/chat-webhook.sender';
import { validateChatMessage, type ParsedChatMessage } from './chat-message.validator';
import { GRAPH_ERRORS, sendGraphError, type GraphErrorKind } from './graph-errors';
import { renderTemplateBody } from './template-placeholders';

export interface ChatMessagesDeps {
  sends: SendLogStore;
  templates: TemplateStore;
  windows: ChatWindowStore;
  webhooks: ChatWebhookSender;
  scheduler: Scheduler;
  logger: Logger;
  /** Receipt delay and chat window, read at each send (docs/sandbox.md#behaviour-at-run-time). */
  behaviour: Readonly<SimBehaviour>;
  now: () => number;
}

type Refusal = { kind: GraphErrorKind; details: string; outcome: SendOutcome };

/** `POST /{version}/{phone-number-id}/messages`: the Cloud API send endpoint. */
export function createSendChatMessageHandler(deps: ChatMessagesDeps): (req: SendRequest, res: JsonAnswer) => void {
  const record = (
    phoneNumberId: string,
    m: Partial<ParsedChatMessage> & { to: string },
    fields: {
      outcome: SendOutcome;
      error_code: string | null;
      upstream_message_id: string | null;
      text?: string | null;
    },
  ) =>
    deps.sends.add(
      {
        channel: 'chat',
        to: m.to ? toE164(m.to) : '',
        from: toE164(phoneNumberId),
        type: m.type ?? 'unknown',
        text: fields.text !== undefined ? fields.text : (m.text ?? null),
        client_ref: m.bizOpaqueCallbackData ?? null,
        upstream_message_id: fields.upstream_message_id,
        outcome: fields.outcome,
        error_code: fields.error_code,
        parts: 1,
        at: isoAt(deps.now()),
      },
      { interactiveType: m.interactiveType, listRows: m.listRows },
    );

  const refuse = (res: JsonAnswer, phoneNumberId: string, m: ParsedChatMessage, refusal: Refusal) => {
    record(phoneNumberId, m, { outcome: refusal.outcome, error_code: String(GRAPH_ERRORS[refusal.kind].code), upstream_message_id: null });
    sendGraphError(res, refusal.kind, refusal.details);
  };

  /** Upstream checks in the order Meta applies them: recipient, throughput, then content rules. */
  const refusalFor = (phoneNumberId: string, m: ParsedChatMessage): Refusal | null => {
    const verdict = sendVerdict('chat', m.to, deps.sends.throttledSinceAccepted('chat', toE164(m.to)));
    if (verdict === 'not_chat_user') {
      return { kind: 'notChatUser', outcome: 'rejected', details: 'Unable to deliver message. The recipient is not a valid WhatsApp user.' };
    }
    if (verdict === 'reject') {
      return { kind: 'invalidParameter', outcome: 'rejected', details: 'The recipient phone number is not accepted for messaging.' };
    }
    if (verdict === 'throttle') {
      return {
        kind: 'throttled',
        outcome: 'throttled',
        details: 'Message failed to send because there were too many messages sent from this phone number in a short period of time.',
      };
    }
    if (m.template) {
      const template = deps.templates.find(m.template.name, m.template.language);
      if (!template || template.status !== 'APPROVED') {
        return { kind: 'templateMissing', outcome: 'rejected', details: `template name (${m.template.name}) does not exist in ${m.template.language}` };
      }
      if (m.template.bodyParameters.length !== template.placeholder_count) {
        return {
          kind: 'templateParamMismatch',
          outcome: 'rejected',
          details: `body: number of localizable_params (${m.template.bodyParameters.length}) does not match the expected number of params (${template.placeholder_count})`,
        };
      }
      return null;
    }
    if (deps.behaviour.enforceChatWindow && !deps.windows.isOpen(phoneNumberId, m.to, deps.now())) {
      return {
        kind: 'outsideWindow',
        outcome: 'rejected',
        details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
      };
    }
    return null;
  };

  const scheduleReports = (phoneNumberId: string, m: ParsedChatMessage, wamid: string) => {
    const plan = reportPlan('chat', m.to);
    const report = (status: 'sent' | 'delivered' | 'read') =>
      deps.webhooks.sendStatus({ phoneNumberId, wamid, status, recipientId: m.to, bizOpaqueCallbackData: m.bizOpaqueCallbackData });
    deps.scheduler.after(0, () => {
      report('sent');
      if (!plan.delivered) return;
      deps.scheduler.after(deps.behaviour.receiptDelayMs, () => {
        report('delivered');
        if (plan.read) deps.scheduler.after(deps.behaviour.receiptDelayMs, () => report('read'));
      });
    });
  };

  return (req: SendRequest, res: JsonAnswer) => {
    const phoneNumberId = String(req.params.phoneNumberId);
    const body: unknown = req.body;
    // Marking an inbound message as read uses the same endpoint; the simulator just acknowledges it.
    if (body && typeof body === 'object' && (body as Record<string, unknown>).status === 'read') {
      res.json({ success: true });
      return;
    }
    const validation = validateChatMessage(body);
    if (!validation.ok) {
      record(
        phoneNumberId,
        { to: validation.to },
        { outcome: 'rejected', error_code: String(GRAPH_ERRORS.invalidParameter.code), upstream_message_id: null, text: null },
      );
      sendGraphError(res, 'invalidParameter', validation.details);
      return;
    }
    const m = validation.message;
    const refusal = refusalFor(phoneNumberId, m);
    if (refusal) {
      refuse(res, phoneNumberId, m, refusal);
      deps.logger.debug('chat send refused', { to: m.to, code: GRAPH_ERRORS[refusal.kind].code, client_ref: m.bizOpaqueCallbackData });
      return;
    }
    const wamid = newWamid();
    const template = m.template ? deps.templates.find(m.template.name, m.template.language) : undefined;
    const text = m.template && template ? renderTemplateBody(template.body_text, m.template.bodyParameters) : m.text;
    record(phoneNumberId, m, { outcome: 'accepted', error_code: null, upstream_message_id: wamid, text });
    res.json({
      messaging_product: 'whatsapp',
      contacts: [{ input: String((body as Record<string, unknown>).to), wa_id: m.to }],
      messages: [{ id: wamid, ...(m.template ? { message_status: 'accepted' } : {}) }],
    });
    deps.logger.debug('chat send accepted', { to: m.to, type: m.type, wamid, client_ref: m.bizOpaqueCallbackData });
    scheduleReports(phoneNumberId, m, wamid);
  };
}
