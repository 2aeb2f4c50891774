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

export function buildStatusNotification(wabaId: string, report: ChatStatusReport, nowMs: number) {
  const status: Record<string, unknown> = {
    id: report.wamid,
    status: report.status,
    timestamp: unixSeconds(nowMs),
    recipient_id: report.recipientId,
  };
  if (report.bizOpaqueCallbackData) status.biz_opaque_callback_data = report.bizOpaqueCallbackData;
  if (report.errors?.length) status.errors = report.errors;
  return messagesChange(wabaId, report.phoneNumberId, { statuses: [status] });
}

function buildInboundNotification(
  wabaId: string,
  phoneNumberId: string,
  message: ChatInboundMessage,
  profileName: string,
) {
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

export function createChatWebhookSender(deps: {
  poster: WebhookPoster;
  webhookUrl: string;
  appSecret: string;
  wabaId: string;
  now?: () => number;
}): ChatWebhookSender {
  const now = deps.now ?? Date.now;
  const post = (kind: string, payload: unknown) => {
    const body = JSON.stringify(payload);
    deps.poster.post({
      url: deps.webhookUrl,
      body,
      kind,
      headers: { 'X-Hub-Signature-256': hubSignature256(deps.appSecret, body) },
    });
  };
  return {
    sendStatus(report) {
      post(`chat.status.${report.status}`, buildStatusNotification(deps.wabaId, report, now()));
    },
    sendInbound(phoneNumberId, message, profileName) {
      post('chat.inbound', buildInboundNotification(deps.wabaId, phoneNumberId, message, profileName));
    },
    sendTemplateStatus(template) {
      post('chat.template_status', buildTemplateStatusNotification(deps.wabaId, template, now()));
    },
  };
}
