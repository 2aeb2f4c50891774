import type { TemplateRecord } from '../state/template.store';
import { hubSignature256 } from './signatures';
import type { WebhookPoster } from './webhook-poster';

export type ChatStatus = 'sent' | 'delivered' | 'read' | 'failed';

export interface ChatStatusReport {
  phoneNumberId: string;
  wamid: string;
  status: ChatStatus;
  recipientId: string;
  bizOpaqueCallbackData?: string | null;
  errors?: Array<{ code: number; title: string }>;
}

/** An inbound customer message, already in the Cloud API's `messages[]` shape. */
export interface ChatInboundMessage {
  from: string;
  id: string;
  timestamp: string;
  type: string;
  [field: string]: unknown;
}

export interface ChatWebhookSender {
  sendStatus(report: ChatStatusReport): void;
  /** Statuses reported but not yet in a notification (held while every webhook connection is busy). */
  heldStatuses(): number;
  sendInbound(phoneNumberId: string, message: ChatInboundMessage, profileName: string): void;
  sendTemplateStatus(template: TemplateRecord): void;
}

const unixSeconds = (ms: number) => String(Math.floor(ms / 1000));

function messagesChange(wabaId: string, phoneNumberId: string, value: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: wabaId,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              // In the sandbox the phone-number-id is the sender's digits, so it is also the display number.
              metadata: { display_phone_number: phoneNumberId, phone_number_id: phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

function statusEntry(report: ChatStatusReport, nowMs: number): Record<string, unknown> {
  const status: Record<string, unknown> = {
    id: report.wamid,
    status: report.status,
    timestamp: unixSeconds(nowMs),
    recipient_id: report.recipientId,
  };
  if (report.bizOpaqueCallbackData) status.biz_opaque_callback_data = report.bizOpaqueCallbackData;
  if (report.errors?.length) status.errors = report.errors;
  return status;
}

export function buildStatusNotification(wabaId: string, report: ChatStatusReport, nowMs: number) {
  return messagesChange(wabaId, report.phoneNumberId, { statuses: [statusEntry(report, nowMs)] });
}

/** Several statuses of one business number in one notification, as the Cloud API batches them under load. */
export function buildStatusesNotification(wabaId: string, phoneNumberId: string, stamped: ReadonlyArray<{ report: ChatStatusReport; atMs: number }>) {
  return messagesChange(wabaId, phoneNumberId, { statuses: stamped.map(({ report, atMs }) => statusEntry(report, atMs)) });
}

function buildInboundNotification(wabaId: string, phoneNumberId: string, message: ChatInboundMessage, profileName: string) {
  return messagesChange(wabaId, phoneNumberId, {
    contacts: [{ profile: { name: profileName }, wa_id: message.from }],
    messages: [message],
  });
}

export function buildTemplateStatusNotification(wabaId: string, template: TemplateRecord, nowMs: number) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: wabaId,
        time: Math.floor(nowMs / 1000),
        changes: [
          {
            field: 'message_template_status_update',
            value: {
              event: template.status,
              // Meta sends the template id as a JSON number here, unlike the string the create call returns.
              message_template_id: Number(template.id),
              message_template_name: template.name,
              message_template_language: template.language,
              reason: template.rejected_reason ?? 'NONE',
              message_template_category: template.category,
            },
          },
        ],
      },
    ],
  };
}

/**
 * The Cloud API puts several statuses in one notification (`entry[].changes[].value.statuses[]`), and the
 * simulator does the same: statuses reported in the same event-loop turn leave together, one notification
 * per business number, at most `maxStatusesPerWebhook` each. A lone status still leaves at once (the flush
 * is a setImmediate, not a timer), and a number's statuses keep the order they were reported in. Under
 * load this turns thousands of webhook requests a second into tens (docs/performance/carrier-sim.md#carrier-sim).
 *
 * While every webhook connection is busy (the receiver is slower than the sends), statuses are held here
 * as small records rather than built into notification bodies, and leave when a connection frees up, in
 * notifications as full as the maximum allows: a slow receiver gets fewer, fuller requests, and the
 * simulator's memory holds one small record per status instead of a queued request body.
 */
export function createChatWebhookSender(deps: {
  poster: WebhookPoster;
  webhookUrl: string;
  appSecret: string;
  wabaId: string;
  now?: () => number;
  /** @defaultValue 100 */
  maxStatusesPerWebhook?: number;
}): ChatWebhookSender {
  const now = deps.now ?? Date.now;
  const maxStatuses = deps.maxStatusesPerWebhook ?? 100;
  const post = (kind: string, payload: unknown) => {
    const body = JSON.stringify(payload);
    deps.poster.post({
      url: deps.webhookUrl,
      body,
      kind,
      headers: { 'X-Hub-Signature-256': hubSignature256(deps.appSecret, body) },
    });
  };

  let pending = new Map<string, Array<{ report: ChatStatusReport; atMs: number }>>();
  let held = 0;
  let flushQueued = false;
  const flushStatuses = () => {
    if (deps.poster.saturated()) {
      deps.poster.onceFree(flushStatuses);
      return;
    }
    flushQueued = false;
    const batches = pending;
    pending = new Map();
    held = 0;
    for (const [phoneNumberId, stamped] of batches) {
      for (let i = 0; i < stamped.length; i += maxStatuses) {
        const slice = stamped.slice(i, i + maxStatuses);
        post(
          slice.length === 1 ? `chat.status.${slice[0].report.status}` : `chat.statuses.${slice.length}`,
          buildStatusesNotification(deps.wabaId, phoneNumberId, slice),
        );
      }
    }
  };

  return {
    sendStatus(report) {
      const queue = pending.get(report.phoneNumberId);
      if (queue) queue.push({ report, atMs: now() });
      else pending.set(report.phoneNumberId, [{ report, atMs: now() }]);
      held += 1;
      if (!flushQueued) {
        flushQueued = true;
        setImmediate(flushStatuses);
      }
    },
    heldStatuses() {
      return held;
    },
    sendInbound(phoneNumberId, message, profileName) {
      post('chat.inbound', buildInboundNotification(deps.wabaId, phoneNumberId, message, profileName));
    },
    sendTemplateStatus(template) {
      post('chat.template_status', buildTemplateStatusNotification(deps.wabaId, template, now()));
    },
  };
}
