import { buildOutboundContent, cloudApiTemplate } from '../src/dispatch/outbound-content';

const shapeA = {
  name: 'order_update',
  language: 'en_US',
  parameters: [
    { type: 'text' as const, text: 'A-17' },
    { type: 'text' as const, text: 'Friday' },
  ],
};
const shapeB = {
  name: 'order_update',
  language: 'en_US',
  components: [
    {
      type: 'body' as const,
      parameters: [
        { type: 'text' as const, text: 'A-17' },
        { type: 'text' as const, text: 'Friday' },
      ],
    },
  ],
};
const cloudTemplate = {
  name: 'order_update',
  language: { code: 'en_US' },
  components: [
    {
      type: 'body',
      parameters: [
        { type: 'text', text: 'A-17' },
        { type: 'text', text: 'Friday' },
      ],
    },
  ],
};

const buttons = {
  type: 'interactive',
  interactive: {
    type: 'button',
    body: { text: 'Confirm your slot?' },
    action: {
      buttons: [
        { type: 'reply', reply: { id: 'yes', title: 'Yes' } },
        { type: 'reply', reply: { id: 'no', title: 'No' } },
      ],
    },
  },
};

describe('cloudApiTemplate', () => {
  it('turns spec shape a into the Cloud API template object', () => {
    expect(cloudApiTemplate(shapeA)).toEqual(cloudTemplate);
  });

  it('turns spec shape b into the same object', () => {
    expect(cloudApiTemplate(shapeB)).toEqual(cloudTemplate);
  });

  it('keeps a language that is already { code }', () => {
    expect(cloudApiTemplate({ name: 'otp', language: { code: 'de' }, parameters: [] })).toEqual({
      name: 'otp',
      language: { code: 'de' },
      components: [{ type: 'body', parameters: [] }],
    });
  });
});

describe('buildOutboundContent', () => {
  it('sends text content as text on chat', () => {
    expect(buildOutboundContent('chat', { content: { text: 'Hello' } })).toEqual({ kind: 'text', text: 'Hello' });
  });

  it('keeps a chat payload as it is on chat', () => {
    expect(buildOutboundContent('chat', { content: buttons })).toEqual({ kind: 'chat', type: 'interactive', payload: buttons.interactive });
  });

  it.each([
    ['a', shapeA],
    ['b', shapeB],
  ])('sends a template reference of shape %s as a Cloud API template on chat', (_shape, template) => {
    expect(buildOutboundContent('chat', { template })).toEqual({ kind: 'chat', type: 'template', payload: cloudTemplate });
  });

  it('converts a chat template payload (POST /v1/messages/chat) too', () => {
    expect(buildOutboundContent('chat', { content: { type: 'template', template: shapeA } })).toEqual({
      kind: 'chat',
      type: 'template',
      payload: cloudTemplate,
    });
  });

  it.each(['sms', 'rcs'] as const)('renders interactive content as body text and numbered options on %s', (channel) => {
    expect(buildOutboundContent(channel, { content: buttons })).toEqual({ kind: 'text', text: 'Confirm your slot?\n1. Yes\n2. No' });
  });

  it('renders a template from its stored body on sms', () => {
    expect(buildOutboundContent('sms', { template: shapeB }, 'Order {{1}} arrives {{2}}.')).toEqual({ kind: 'text', text: 'Order A-17 arrives Friday.' });
  });

  it('renders a chat template payload from its stored body on rcs', () => {
    expect(buildOutboundContent('rcs', { content: { type: 'template', template: shapeA } }, 'Order {{1}} arrives {{2}}.')).toEqual({
      kind: 'text',
      text: 'Order A-17 arrives Friday.',
    });
  });

  it('falls back to the parameters when no body is stored', () => {
    expect(buildOutboundContent('sms', { template: shapeA })).toEqual({ kind: 'text', text: 'A-17 Friday' });
  });

  it('passes plain text through unchanged on sms', () => {
    expect(buildOutboundContent('sms', { content: { text: 'Grüße 👋' } })).toEqual({ kind: 'text', text: 'Grüße 👋' });
  });

  it('answers null when nothing would be left to send on a text channel', () => {
    expect(buildOutboundContent('sms', { template: { name: 'empty', language: 'en', parameters: [] } })).toBeNull();
  });
});
