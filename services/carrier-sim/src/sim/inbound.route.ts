import type { RequestHandler } from 'express';
import type { Channel } from '../behaviour/number-behaviour';
import { sendProblem } from '../http/problem';
import type { SmscServer } from '../smpp/smsc-server';
import type { Logger } from '../support/json-logger';
import { newRbmUserMessageId, newWamid } from '../support/upstream-ids';
import type { ChatWindowStore } from '../state/chat-window.store';
import type { SendLogStore, SendRecord } from '../state/send-log.store';
import type { ChatInboundMessage, ChatWebhookSender } from '../webhooks/chat-webhook.sender';
import type { RbmEventSender } from '../webhooks/rbm-event.sender';

export interface InboundDeps {
  sends: SendLogStore;
  windows: ChatWindowStore;
  chatWebhooks: ChatWebhookSender;
  rbmEvents: RbmEventSender;
  smsc: Pick<SmscServer, 'deliverMobileOriginated'>;
  defaultAgentId: string;
  logger: Logger;
  now: () => number;
}

export interface InboundRequest {
  channel: Channel;
  from: string;
  to: string;
  text?: string;
  reply?: { id: string; title: string };
  context_message_id?: string;
}

/** Name the sandbox customer carries in chat webhooks' `contacts[].profile`. */
const CUSTOMER_PROFILE_NAME = 'Sandbox Customer';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const E164 = /^\+\d{6,15}$/;

function parseInboundRequest(body: unknown): { ok: true; value: InboundRequest } | { ok: false; detail: string } {
  if (!isObj(body)) return { ok: false, detail: 'body must be a JSON object' };
  const { channel, from, to, text, reply, context_message_id: contextId } = body;
  if (channel !== 'chat' && channel !== 'rcs' && channel !== 'sms') return { ok: false, detail: 'channel must be chat, rcs or sms' };
  if (typeof from !== 'string' || !E164.test(from)) return { ok: false, detail: 'from must be an E.164 number' };
  if (typeof to !== 'string' || !E164.test(to)) return { ok: false, detail: 'to must be an E.164 number' };
  if (text !== undefined && (typeof text !== 'string' || text === '')) return { ok: false, detail: 'text must be a non-empty string' };
  if (reply !== undefined && !(isObj(reply) && typeof reply.id === 'string' && reply.id !== '' && typeof reply.title === 'string' && reply.title !== '')) {
    return { ok: false, detail: 'reply must be { id, title }' };
  }
  if (text === undefined && reply === undefined) return { ok: false, detail: 'one of text or reply is required' };
  if (contextId !== undefined && (typeof contextId !== 'string' || contextId === '')) {
    return { ok: false, detail: 'context_message_id must be a non-empty string' };
  }
  return {
    ok: true,
    value: {
      channel,
      from,
      to,
      ...(typeof text === 'string' ? { text } : {}),
      ...(isObj(reply) ? { reply: { id: reply.id as string, title: reply.title as string } } : {}),
      ...(typeof contextId === 'string' ? { context_message_id: contextId } : {}),
    },
  };
}

/** `POST /sim/inbound`: a customer writes to one of our numbers, reaching the gateway the upstream's way. */
export function createInboundHandler(deps: InboundDeps): RequestHandler {
  const chatInbound = (req: InboundRequest, context: SendRecord | undefined): string => {
    const phoneNumberId = req.to.slice(1);
    const customer = req.from.slice(1);
    const wamid = newWamid();
    const message: ChatInboundMessage = { from: customer, id: wamid, timestamp: String(Math.floor(deps.now() / 1000)), type: 'text' };
    if (context?.upstream_message_id) message.context = { from: phoneNumberId, id: context.upstream_message_id };
    if (req.reply) {
      const detail = context ? deps.sends.detailOf(context) : undefined;
      message.type = 'interactive';
      if (detail?.interactiveType === 'list') {
        const row = detail.listRows?.find((r) => r.id === req.reply?.id);
        const description = row?.description !== undefined ? { description: row.description } : {};
        message.interactive = { type: 'list_reply', list_reply: { id: req.reply.id, title: req.reply.title, ...description } };
      } else {
        message.interactive = { type: 'button_reply', button_reply: { id: req.reply.id, title: req.reply.title } };
      }
    } else {
      message.text = { body: req.text };
    }
    // Any customer message opens (or renews) the 24 h window on the upstream side too.
    deps.windows.open(phoneNumberId, customer, deps.now());
    deps.chatWebhooks.sendInbound(phoneNumberId, message, CUSTOMER_PROFILE_NAME);
    return wamid;
  };

  const rcsInbound = (req: InboundRequest): string => {
    // RBM addresses an agent, not a number: answer the agent that last wrote to this customer.
    const agentId =
      deps.sends.latestAccepted('rcs', (r) => r.to === req.from)?.from ?? deps.sends.latestAccepted('rcs', () => true)?.from ?? deps.defaultAgentId;
    const messageId = newRbmUserMessageId();
    deps.rbmEvents.sendUserMessage({
      senderPhoneNumber: req.from,
      messageId,
      agentId,
      ...(req.reply ? { suggestionResponse: { postbackData: req.reply.id, text: req.reply.title, type: 'REPLY' as const } } : { text: req.text }),
    });
    return messageId;
  };

  return (httpReq, res) => {
    const parsed = parseInboundRequest(httpReq.body);
    if (!parsed.ok) return sendProblem(res, 400, 'validation_failed', parsed.detail);
    const req = parsed.value;
    let context: SendRecord | undefined;
    // Only the Cloud API carries reply context on the wire; RBM and SMPP have no such field.
    if (req.channel === 'chat' && req.context_message_id !== undefined) {
      context = deps.sends.acceptedByClientRef('chat', req.context_message_id);
      if (!context) return sendProblem(res, 404, 'not_found', `no accepted chat send has biz_opaque_callback_data ${req.context_message_id}`);
    }
    let id: string;
    if (req.channel === 'chat') id = chatInbound(req, context);
    else if (req.channel === 'rcs') id = rcsInbound(req);
    else id = deps.smsc.deliverMobileOriginated({ from: req.from, to: req.to, text: req.text ?? req.reply?.title ?? '' });
    deps.logger.info('inbound pushed', { channel: req.channel, id });
    res.status(202).json({ id });
  };
}
