import type { JsonSchema } from './json-schema';

/**
 * Request body examples, by operationId. Each is a request the sandbox stack accepts as it stands:
 * the Postman collection sends them unchanged (docs/api.md#postman), and a unit test validates each
 * against its operation's request schema.
 */
export const REQUEST_EXAMPLES: Record<string, Record<string, { summary: string; value: JsonSchema }>> = {
  sendMessage: {
    sms: {
      summary: 'A text over SMS',
      value: { recipient: '+14155552671', channel: 'sms', content: { text: 'Your code is 123456' }, metadata: { order: '42' } },
    },
    auto: {
      summary: 'Chat first, SMS after 30 s',
      value: {
        recipient: '+14155552671',
        channel: 'auto',
        content: { text: 'Your parcel is on its way' },
        fallback: ['chat', 'sms'],
        fallback_timeout_seconds: 30,
      },
    },
  },
  sendBatch: {
    campaign: {
      summary: 'Two SMS with shared defaults',
      value: {
        channel: 'sms',
        metadata: { campaign: 'spring' },
        messages: [
          { recipient: '+14155552671', content: { text: 'Spring sale: 20% off today' } },
          { recipient: '+14155552672', content: { text: 'Spring sale: 20% off today' }, metadata: { segment: 'vip' } },
        ],
      },
    },
  },
  sendChatMessage: {
    text: {
      summary: 'A free-form text (needs an open customer window)',
      value: { to: '+14155552671', type: 'text', text: { body: 'Thanks, we got your reply.' } },
    },
  },
  updateAccountSettings: {
    fallback: { summary: 'Fall back after 45 s by default', value: { fallback_timeout_seconds: 45 } },
  },
  createTemplate: {
    utility: {
      summary: 'A utility template with one parameter',
      value: { name: 'order_shipped', language: 'en_US', category: 'utility', components: [{ type: 'body', text: 'Your order {{1}} has shipped.' }] },
    },
  },
  createSuppression: {
    sms: { summary: 'Stop SMS to a customer', value: { recipient: '+14155552671', channel: 'sms' } },
  },
  createWebhookEndpoint: {
    delivered: {
      summary: 'Delivery receipts to one endpoint',
      value: { url: 'https://example.com/hooks/switchboard', events: ['message.delivered', 'message.failed'], description: 'Order service' },
    },
  },
  createAgent: {
    frontDesk: {
      summary: 'Greet, ask for a digit, route on it (docs/voice.md#walk-through)',
      value: {
        name: 'front desk',
        voice: 'slt',
        flow: {
          start: 'greet',
          nodes: {
            greet: { type: 'say', text: 'Hello {{name}}, this is Switchboard.', next: 'menu' },
            menu: {
              type: 'gather',
              input: 'dtmf',
              prompt: 'Press 1 for sales or 2 for support.',
              max_digits: 1,
              timeout_seconds: 8,
              save_as: 'choice',
              branches: [
                { match: '1', next: 'sales' },
                { match: '2', next: 'support' },
              ],
              no_input: 'bye',
              no_match: 'bye',
            },
            sales: { type: 'say', text: 'Connecting you to sales.', next: 'bye' },
            support: { type: 'say', text: 'Connecting you to support.', next: 'bye' },
            bye: { type: 'hangup' },
          },
        },
      },
    },
  },
  replaceAgent: {
    greeting: {
      summary: 'A flow that only greets and hangs up',
      value: {
        name: 'front desk (closed)',
        voice: 'rms',
        flow: { start: 'greet', nodes: { greet: { type: 'say', text: 'Hello {{name}}, we are closed today.', next: 'bye' }, bye: { type: 'hangup' } } },
      },
    },
  },
  createCall: {
    agent: {
      summary: 'Call a sandbox phone that presses 1, run by an agent, recorded',
      value: { to: '+14155552600', from: '+14155550199', agent_id: 'agt_01JD7Z8Q4V6K2M9R3T5W7Y1B0C', record: true, metadata: { name: 'Ada' } },
    },
  },
  chatWebhook: {
    inbound: {
      summary: 'A customer writes to the business number +14155550199',
      value: {
        object: 'whatsapp_business_account',
        entry: [
          {
            id: '100000000000001',
            changes: [
              {
                field: 'messages',
                value: {
                  messaging_product: 'whatsapp',
                  metadata: { display_phone_number: '14155550199', phone_number_id: '14155550199' },
                  contacts: [{ profile: { name: 'Ada' }, wa_id: '14155552671' }],
                  messages: [
                    {
                      from: '14155552671',
                      id: 'wamid.HBgLMTQxNTU1NTI2NzEVAgASGBQzQTdGRjg2',
                      timestamp: '1795435200',
                      type: 'text',
                      text: { body: 'Where is my order?' },
                    },
                  ],
                },
              },
            ],
          },
        ],
      },
    },
  },
  rcsEvents: {
    delivered: {
      summary: 'A Pub/Sub push of an RBM event',
      value: {
        message: { data: 'eyJldmVudFR5cGUiOiJERUxJVkVSRUQiLCJtZXNzYWdlSWQiOiJ1bmtub3duIn0=', messageId: '1', publishTime: '2026-11-23T12:00:00.000Z' },
        subscription: 'projects/p/subscriptions/rbm',
      },
    },
  },
};
