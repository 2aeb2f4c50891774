import { parseChatWebhook } from '../src/chat/chat-webhook.parser';

function webhook(value: Record<string, unknown>, field = 'messages') {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          { field, value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '15550001000', phone_number_id: '15550001000' }, ...value } },
        ],
      },
    ],
  };
}

const contacts = [{ profile: { name: 'Kerry Fisher' }, wa_id: '16315551181' }];

describe('parseChatWebhook: statuses', () => {
  it('reads sent, delivered and read with the echoed callback data', () => {
    const statuses = ['sent', 'delivered', 'read'].map((status, i) => ({
      id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDQjZCMzlEQUE4OTJBMTE4RTUA',
      status,
      timestamp: String(1750857384 + i),
      recipient_id: '16315551181',
      biz_opaque_callback_data: 'msg_01J00000000000000000000000',
      conversation: { id: 'c1', origin: { type: 'service' } },
      pricing: { billable: true, pricing_model: 'CBP', category: 'service' },
    }));
    const { receipts, inbound, templateUpdates } = parseChatWebhook(webhook({ statuses }));
    expect(inbound).toEqual([]);
    expect(templateUpdates).toEqual([]);
    expect(receipts).toEqual(
      ['sent', 'delivered', 'read'].map((status, i) => ({
        channel: 'chat',
        upstreamMessageId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDQjZCMzlEQUE4OTJBMTE4RTUA',
        clientRef: 'msg_01J00000000000000000000000',
        recipient: '+16315551181',
        status,
        carrierStatusCode: status,
        occurredAt: new Date((1750857384 + i) * 1000).toISOString(),
      })),
    );
  });

  it('reads failed with the first error code', () => {
    const statuses = [
      { id: 'wamid.F', status: 'failed', timestamp: '1750857384', recipient_id: '16315551101', errors: [{ code: 131026, title: 'Message undeliverable' }] },
    ];
    const [receipt] = parseChatWebhook(webhook({ statuses })).receipts;
    expect(receipt).toMatchObject({ status: 'failed', carrierStatusCode: '131026', errorCode: '131026', errorMessage: 'Message undeliverable' });
    expect(receipt.clientRef).toBeUndefined();
  });

  it('skips statuses it has no mapping for', () => {
    const statuses = [{ id: 'wamid.D', status: 'deleted', timestamp: '1' }, { status: 'sent' }, 'junk'];
    expect(parseChatWebhook(webhook({ statuses })).receipts).toEqual([]);
  });
});

describe('parseChatWebhook: inbound messages', () => {
  it('reads a text message', () => {
    const messages = [{ from: '16315551181', id: 'wamid.IN1', timestamp: '1504902988', type: 'text', text: { body: 'this is a text message' } }];
    expect(parseChatWebhook(webhook({ contacts, messages })).inbound).toEqual([
      {
        channel: 'chat',
        upstreamId: 'wamid.IN1',
        from: '+16315551181',
        to: '+15550001000',
        type: 'text',
        text: 'this is a text message',
        receivedAt: new Date(1504902988000).toISOString(),
      },
    ]);
  });

  it('reads a button_reply with its context', () => {
    const messages = [
      {
        context: { from: '15550001000', id: 'wamid.OUT1' },
        from: '16315551181',
        id: 'wamid.IN2',
        timestamp: '1504902988',
        type: 'interactive',
        interactive: { type: 'button_reply', button_reply: { id: 'confirm', title: 'Confirm' } },
      },
    ];
    const [inbound] = parseChatWebhook(webhook({ contacts, messages })).inbound;
    expect(inbound).toMatchObject({ type: 'reply', reply: { id: 'confirm', title: 'Confirm' }, text: 'Confirm', contextUpstreamId: 'wamid.OUT1' });
  });

  it('reads a list_reply', () => {
    const messages = [
      {
        context: { from: '15550001000', id: 'wamid.OUT2' },
        from: '16315551181',
        id: 'wamid.IN3',
        timestamp: '1504902988',
        type: 'interactive',
        interactive: { type: 'list_reply', list_reply: { id: 'row_2', title: 'Tuesday', description: '10:00' } },
      },
    ];
    expect(parseChatWebhook(webhook({ messages })).inbound[0]).toMatchObject({
      type: 'reply',
      reply: { id: 'row_2', title: 'Tuesday' },
      contextUpstreamId: 'wamid.OUT2',
    });
  });

  it('reads a template quick-reply button', () => {
    const messages = [
      { from: '16315551181', id: 'wamid.IN4', timestamp: '1', type: 'button', button: { payload: 'yes_payload', text: 'Yes' }, context: { id: 'wamid.OUT3' } },
    ];
    expect(parseChatWebhook(webhook({ messages })).inbound[0]).toMatchObject({ type: 'reply', reply: { id: 'yes_payload', title: 'Yes' } });
  });

  it('reads a location', () => {
    const messages = [
      {
        from: '16315551181',
        id: 'wamid.IN5',
        timestamp: '1',
        type: 'location',
        location: { latitude: 52.52, longitude: 13.405, name: 'Office', address: 'Berlin' },
      },
    ];
    expect(parseChatWebhook(webhook({ messages })).inbound[0]).toMatchObject({
      type: 'location',
      location: { latitude: 52.52, longitude: 13.405, name: 'Office', address: 'Berlin' },
    });
  });

  it('reads media', () => {
    const messages = [
      { from: '16315551181', id: 'wamid.IN6', timestamp: '1', type: 'image', image: { id: 'media-1', mime_type: 'image/jpeg', sha256: 'x', caption: 'look' } },
    ];
    expect(parseChatWebhook(webhook({ messages })).inbound[0]).toMatchObject({
      type: 'image',
      media: { id: 'media-1', mime_type: 'image/jpeg', caption: 'look' },
    });
  });

  it('carries statuses and messages of several entries and changes', () => {
    const body = webhook({ statuses: [{ id: 'wamid.A', status: 'sent', timestamp: '1' }] });
    (body.entry as unknown[]).push(webhook({ messages: [{ from: '1', id: 'wamid.B', timestamp: '1', type: 'text', text: { body: 'hi' } }] }).entry[0]);
    const parsed = parseChatWebhook(body);
    expect(parsed.receipts).toHaveLength(1);
    expect(parsed.inbound).toHaveLength(1);
  });
});

describe('parseChatWebhook: template status updates', () => {
  it('reads APPROVED and REJECTED', () => {
    const approved = webhook(
      { event: 'APPROVED', message_template_id: 594425479261596, message_template_name: 'order_update', message_template_language: 'en_US', reason: 'NONE' },
      'message_template_status_update',
    );
    const rejected = webhook(
      { event: 'REJECTED', message_template_id: '77', message_template_name: 'promo', message_template_language: 'de', reason: 'INVALID_FORMAT' },
      'message_template_status_update',
    );
    expect(parseChatWebhook(approved).templateUpdates).toEqual([
      { upstreamTemplateId: '594425479261596', name: 'order_update', language: 'en_US', status: 'approved' },
    ]);
    expect(parseChatWebhook(rejected).templateUpdates).toEqual([
      { upstreamTemplateId: '77', name: 'promo', language: 'de', status: 'rejected', reason: 'INVALID_FORMAT' },
    ]);
  });

  it('skips other template events', () => {
    const paused = webhook({ event: 'PAUSED', message_template_id: '1' }, 'message_template_status_update');
    expect(parseChatWebhook(paused).templateUpdates).toEqual([]);
  });
});

describe('parseChatWebhook: odd shapes', () => {
  it.each([
    ['null', null],
    ['a string', 'hello'],
    ['a number', 42],
    ['an array', [1, 2]],
    ['no entry', { object: 'whatsapp_business_account' }],
    ['entry not an array', { entry: { changes: [] } }],
    ['changes not an array', { entry: [{ changes: 'x' }] }],
    ['value missing', { entry: [{ changes: [{ field: 'messages' }] }] }],
    ['statuses not an array', { entry: [{ changes: [{ field: 'messages', value: { statuses: {} } }] }] }],
    [
      'messages with garbage',
      {
        entry: [
          {
            changes: [
              { field: 'messages', value: { messages: [null, 1, { type: 'text' }, { id: 'x', from: '1', type: 'location', location: { latitude: 'n' } }] } },
            ],
          },
        ],
      },
    ],
    ['unknown field', { entry: [{ changes: [{ field: 'account_update', value: { event: 'X' } }] }] }],
  ])('returns empty results for %s', (_label, body) => {
    expect(() => parseChatWebhook(body)).not.toThrow();
    expect(parseChatWebhook(body)).toEqual({ receipts: [], inbound: [], templateUpdates: [] });
  });

  it('keeps what it understood next to garbage', () => {
    const body = webhook({ statuses: [null, { id: 'wamid.OK', status: 'delivered', timestamp: 'not-a-number' }] });
    const { receipts } = parseChatWebhook(body);
    expect(receipts).toHaveLength(1);
    expect(Number.isNaN(Date.parse(receipts[0].occurredAt))).toBe(false);
  });
});
