import { newId } from '@switchboard/domain';
import type { DeliverWebhookJob, FanOutEventJob, ProviderCallbackJob, MessageTimerJob, SendMessageJob, SubmitTemplateJob } from '@switchboard/queues';
import { JOB_PAYLOAD_CHECKS, JOB_PAYLOAD_SCHEMAS } from '@switchboard/schemas';

const { sendMessage, providerCallback, submitTemplate, fanOutEvent, deliverWebhook } = JOB_PAYLOAD_CHECKS;

/** Every property of the type given, so that a schema too strict for one of them fails here. */
const fullSendJob: Required<SendMessageJob> = {
  message_id: newId('msg'),
  account_id: newId('acc'),
  mode: 'live',
  channel: 'auto',
  plan: ['chat', 'rcs', 'sms'],
  senders: { chat: { e164: '+14155550100', chat_phone_number_id: '14155550100' }, rcs: { e164: '+14155550100' }, sms: { e164: '+14155550100' } },
  recipient: '+447911123456',
  content: { type: 'text', text: { body: 'hi' } },
  template: undefined as never,
  callback_url: 'https://hooks.example.com/x',
  ttl_seconds: 60,
  fallback_timeout_seconds: 30,
  metadata: { order: '42' },
  cost_units: 2,
  created_at: '2026-11-23T09:00:00.000Z',
  skipped_channels: { chat: 'outside_customer_service_window' },
  scheduled_until: '2026-11-23T09:05:00.000Z',
};
const { template: _template, ...sendJob } = fullSendJob;

const receipt: ProviderCallbackJob['receipts'][number] = {
  channel: 'sms',
  upstreamMessageId: 'smsc-1',
  clientRef: newId('msg'),
  attemptRef: 7,
  recipient: '+447911123456',
  status: 'undelivered',
  carrierStatusCode: 'UNDELIV:005',
  errorCode: '005',
  errorMessage: 'SMSC reported UNDELIV',
  occurredAt: '2026-11-23T09:00:00.000Z',
};
const inbound: ProviderCallbackJob['inbound'][number] = {
  channel: 'chat',
  upstreamId: 'wamid.1',
  from: '+447911123456',
  to: '+14155550100',
  type: 'location',
  text: '',
  reply: { id: 'yes', title: 'Yes' },
  location: { latitude: 51.5, longitude: -0.12, name: 'Office', address: 'London' },
  media: { id: 'm1', mime_type: 'image/jpeg', caption: 'c' },
  contextUpstreamId: 'wamid.0',
  receivedAt: '2026-11-23T09:00:00.000Z',
};
const callbackJob: ProviderCallbackJob = {
  source: 'chat',
  received_at: '2026-11-23T09:00:01.000Z',
  receipts: [receipt],
  inbound: [inbound],
  template_updates: [{ upstreamTemplateId: '1', name: 'order_update', language: 'en_US', status: 'rejected', reason: 'INVALID_FORMAT' }],
};

describe('job payload checks', () => {
  it('accept what the producers build, every optional property included', () => {
    expect(sendMessage(sendJob)).toBeNull();
    expect(
      sendMessage({ ...sendJob, content: undefined, template: { name: 'order_update', language: 'en_US', parameters: [{ type: 'text', text: '42' }] } }),
    ).toBeNull();
    expect(sendMessage({ ...sendJob, channel: 'sms', plan: ['sms'], content: { text: 'hello' }, skipped_channels: undefined })).toBeNull();
    expect(providerCallback(callbackJob)).toBeNull();
    expect(providerCallback({ ...callbackJob, receipts: [], inbound: [], template_updates: [] })).toBeNull();
    expect(submitTemplate({ template_id: newId('tpl'), account_id: newId('acc'), mode: 'test' } satisfies SubmitTemplateJob)).toBeNull();
    expect(fanOutEvent({ event_id: newId('evt') } satisfies FanOutEventJob)).toBeNull();
    expect(deliverWebhook({ delivery_id: newId('dlv'), generation: 0 } satisfies DeliverWebhookJob)).toBeNull();
    const check = JOB_PAYLOAD_CHECKS.messageTimer;
    expect(check({ kind: 'expire', message_id: sendJob.message_id, ttl_seconds: 30 } satisfies MessageTimerJob)).toBeNull();
    const fallbackCheck: MessageTimerJob = {
      kind: 'fallback-check',
      message_id: sendJob.message_id,
      attempt_id: newId('att'),
      timeout_seconds: 5,
      send: sendJob,
    };
    expect(check(fallbackCheck)).toBeNull();
    expect(check({ ...fallbackCheck, send: undefined })).toMatch(/^invalid message-timer job: .*send/);
  });

  it('tolerate properties they do not know, so a worker one release behind runs a newer job', () => {
    expect(sendMessage({ ...sendJob, priority: 'high' })).toBeNull();
    expect(deliverWebhook({ delivery_id: newId('dlv'), generation: 1, trace: 'x' })).toBeNull();
  });

  it('name each offending field by its JSON Pointer', () => {
    expect(sendMessage({ ...sendJob, plan: [] })).toBe('invalid send-message job: /plan must have at least 1 item');
    expect(sendMessage({ ...sendJob, message_id: 'msg_1', recipient: '447911123456' })).toBe(
      'invalid send-message job: /message_id must be a msg_ id; /recipient must be an E.164 phone number such as +14155550123',
    );
    expect(sendMessage({ ...sendJob, channel: 'sms', plan: ['chat'] })).toBe('invalid send-message job: /plan must be ["sms"]');
    expect(sendMessage({ ...sendJob, senders: { fax: { e164: '+14155550100' } } })).toMatch(
      /^invalid send-message job: \/senders\/fax name must be one of: chat, rcs, sms/,
    );
    expect(sendMessage({ ...sendJob, skipped_channels: { sms: 'bored' } })).toBe(
      'invalid send-message job: /skipped_channels/sms must be one of: outside_customer_service_window, recipient_opted_out',
    );
    expect(sendMessage({ ...sendJob, content: { type: 'image', image: { link: 'ftp://x' } } })).toMatch(/\/content\/image\/link must be an http or https URL/);
  });

  it('want exactly one of content and template in a send job', () => {
    const { content: _content, ...neither } = sendJob;
    expect(sendMessage(neither)).toBe('invalid send-message job: /template is required');
    expect(sendMessage({ ...sendJob, template: { name: 'a', language: 'en' } })).toBe('invalid send-message job: /template is not allowed here');
  });

  it('check every receipt, reply and review of a callback job', () => {
    expect(providerCallback({ ...callbackJob, receipts: [{ ...receipt, status: 'lost' }] })).toMatch(
      /^invalid provider-callback job: \/receipts\/0\/status must be one of/,
    );
    expect(providerCallback({ ...callbackJob, receipts: [{ ...receipt, occurredAt: 'yesterday' }] })).toBe(
      'invalid provider-callback job: /receipts/0/occurredAt must be a valid date-time',
    );
    const { upstreamId: _id, ...noId } = inbound;
    expect(providerCallback({ ...callbackJob, inbound: [inbound, noId] })).toBe('invalid provider-callback job: /inbound/1/upstreamId is required');
    expect(providerCallback({ ...callbackJob, template_updates: 'none' })).toBe('invalid provider-callback job: /template_updates must be an array');
    expect(providerCallback({ source: 'chat', received_at: callbackJob.received_at, receipts: [] })).toBe(
      'invalid provider-callback job: /inbound is required; /template_updates is required',
    );
  });

  it('refuse id-only jobs without a well-formed id', () => {
    expect(fanOutEvent({ event_id: 'evt_nope' })).toBe('invalid fan-out-event job: /event_id must be a evt_ id');
    expect(deliverWebhook({ delivery_id: newId('dlv'), generation: 1.5 })).toBe('invalid deliver-webhook job: /generation must be an integer');
    expect(submitTemplate({ template_id: newId('tpl'), account_id: 'acc', mode: 'sandbox' })).toBe(
      'invalid submit-template job: /mode must be one of: live, test',
    );
  });

  it('say so when the payload is not an object at all', () => {
    for (const check of Object.values(JOB_PAYLOAD_CHECKS)) expect(check(null)).toMatch(/ job: \(payload\) must be an object$/);
    expect(fanOutEvent(undefined)).toMatch(/\(payload\) must be an object/);
  });

  it('describe every property the payload types have', () => {
    const properties = (name: keyof typeof JOB_PAYLOAD_SCHEMAS) => Object.keys(JOB_PAYLOAD_SCHEMAS[name].properties as object).sort();
    expect(properties('sendMessage')).toEqual(Object.keys(fullSendJob).sort());
    expect(properties('providerCallback')).toEqual(Object.keys(callbackJob).sort());
  });
});
