import type { RequestHandler } from 'express';
import { sendProblem } from '../http/problem';
import type { SendLogStore } from '../state/send-log.store';
import type { SmsReceiptPlanStore } from '../state/sms-receipt-plan.store';
import type { ChatWebhookSender } from '../webhooks/chat-webhook.sender';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const E164 = /^\+\d{6,15}$/;
const CHAT_STATUSES = new Set(['sent', 'delivered', 'read', 'failed']);

/**
 * `POST /sim/receipts { channel: "chat", upstream_message_id, status }`: sends one status webhook for
 * a chat message the simulator accepted earlier, whatever its number's behaviour, so that a test can
 * make a receipt arrive late (docs/sandbox.md#late-receipts).
 */
export function createLateReceiptHandler(deps: { sends: SendLogStore; chatWebhooks: ChatWebhookSender }): RequestHandler {
  return (req, res) => {
    const body: unknown = req.body;
    if (!isObj(body)) return sendProblem(res, 400, 'validation_failed', 'body must be a JSON object');
    if (body.channel !== 'chat') return sendProblem(res, 400, 'validation_failed', 'channel must be "chat"');
    if (typeof body.upstream_message_id !== 'string' || body.upstream_message_id === '') {
      return sendProblem(res, 400, 'validation_failed', 'upstream_message_id must be a non-empty string');
    }
    if (typeof body.status !== 'string' || !CHAT_STATUSES.has(body.status)) {
      return sendProblem(res, 400, 'validation_failed', 'status must be one of sent, delivered, read, failed');
    }
    const record = deps.sends.list({ channel: 'chat' }).find((r) => r.upstream_message_id === body.upstream_message_id && r.outcome === 'accepted');
    if (!record) return sendProblem(res, 404, 'not_found', `no accepted chat send has upstream_message_id ${body.upstream_message_id}`);
    deps.chatWebhooks.sendStatus({
      // In the sandbox the phone-number-id is the sender's digits.
      phoneNumberId: record.from.replace(/^\+/, ''),
      wamid: body.upstream_message_id,
      status: body.status as 'sent' | 'delivered' | 'read' | 'failed',
      recipientId: record.to.replace(/^\+/, ''),
      bizOpaqueCallbackData: record.client_ref,
    });
    res.status(202).json({ sent: true });
  };
}

function positiveIntegers(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((n) => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= 255);
}

/**
 * `POST /sim/sms-receipt-plans { to, order, fail_part? }` holds back the part receipts of SMS to `to`;
 * `POST /sim/sms-receipt-plans/release { to, count }` sends the next `count` of them in `order`
 * (docs/sandbox.md#multi-part-sms-receipts).
 */
export function createSmsReceiptPlanHandlers(deps: { plans: SmsReceiptPlanStore }): { set: RequestHandler; release: RequestHandler } {
  return {
    set: (req, res) => {
      const body: unknown = req.body;
      if (!isObj(body)) return sendProblem(res, 400, 'validation_failed', 'body must be a JSON object');
      if (typeof body.to !== 'string' || !E164.test(body.to)) return sendProblem(res, 400, 'validation_failed', 'to must be an E.164 number');
      if (!positiveIntegers(body.order)) return sendProblem(res, 400, 'validation_failed', 'order must be an array of part numbers (1-255)');
      if (body.fail_part !== undefined && !positiveIntegers([body.fail_part])) {
        return sendProblem(res, 400, 'validation_failed', 'fail_part must be a part number (1-255)');
      }
      deps.plans.set(body.to, { order: body.order, failPart: body.fail_part as number | undefined });
      res.status(204).end();
    },
    release: (req, res) => {
      const body: unknown = req.body;
      if (!isObj(body)) return sendProblem(res, 400, 'validation_failed', 'body must be a JSON object');
      if (typeof body.to !== 'string' || !E164.test(body.to)) return sendProblem(res, 400, 'validation_failed', 'to must be an E.164 number');
      if (!Number.isInteger(body.count) || (body.count as number) < 1) return sendProblem(res, 400, 'validation_failed', 'count must be a positive integer');
      res.json({ released: deps.plans.release(body.to, body.count as number) });
    },
  };
}
