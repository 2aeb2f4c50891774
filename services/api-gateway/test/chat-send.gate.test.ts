import type { MessageRequest, StoredTemplateFacts } from '@switchboard/schemas';
import type { CustomerWindowKey } from '@switchboard/domain';
import { createChatSendGate } from '../src/chat/chat-send.gate';
import type { DependencyGuard } from '../src/http/dependency-guard';
import type { SenderPlan } from '../src/messages/sender-resolution';

const guard: DependencyGuard = (_dependency, call) => call();
const TO = '+447911123400';
const chatAndSms: SenderPlan = {
  plan: ['chat', 'sms'],
  senders: { chat: { e164: '+14155550100', chat_phone_number_id: '14155550100' }, sms: { e164: '+14155550100' } },
};
const chatOnly: SenderPlan = { plan: ['chat'], senders: { chat: chatAndSms.senders.chat } };

function gate(opts: { template?: StoredTemplateFacts | null; open?: boolean }) {
  const windowsAsked: CustomerWindowKey[] = [];
  const check = createChatSendGate({
    findTemplate: async () => opts.template ?? null,
    windowIsOpen: async (w) => (windowsAsked.push(w), opts.open ?? false),
    guard,
  });
  return { check, windowsAsked };
}

async function codeOf(promise: Promise<unknown>): Promise<string | null> {
  try {
    await promise;
    return null;
  } catch (error) {
    return (error as { code: string }).code;
  }
}

const text = (channel: MessageRequest['channel']): MessageRequest => ({ channel, recipient: TO, content: { type: 'text', text: { body: 'hi' } } });

describe('chat send gate', () => {
  it('refuses free-form chat outside the window and asks about the right window', async () => {
    const { check, windowsAsked } = gate({ open: false });
    expect(await codeOf(check('acc_1', text('chat'), chatOnly))).toBe('outside_customer_service_window');
    expect(windowsAsked).toEqual([{ accountId: 'acc_1', sender: '+14155550100', customer: TO }]);
    expect(await codeOf(check('acc_1', { channel: 'chat', recipient: TO, content: { text: 'plain' } }, chatOnly))).toBe('outside_customer_service_window');
  });

  it('lets free-form chat through inside the window', async () => {
    expect(await gate({ open: true }).check('acc_1', text('chat'), chatOnly)).toBe(chatOnly);
  });

  it('with auto, marks chat as skipped instead of refusing', async () => {
    const result = await gate({ open: false }).check('acc_1', text('auto'), chatAndSms);
    expect(result).toEqual({ ...chatAndSms, skipped: { chat: 'outside_customer_service_window' } });
    expect(await codeOf(gate({ open: false }).check('acc_1', text('auto'), chatOnly))).toBe('outside_customer_service_window');
  });

  it('checks templates in both places and never the window for them', async () => {
    const a: MessageRequest = { channel: 'chat', recipient: TO, template: { name: 't', language: 'en', parameters: [{ type: 'text', text: 'x' }] } };
    const b: MessageRequest = {
      channel: 'chat',
      recipient: TO,
      content: { type: 'template', template: { name: 't', language: 'en', components: [{ type: 'body', parameters: [] }] } },
    };
    const approved = gate({ template: { status: 'approved', placeholder_count: 1 } });
    expect(await approved.check('acc_1', a, chatOnly)).toBe(chatOnly);
    expect(await codeOf(approved.check('acc_1', b, chatOnly))).toBe('template_parameter_mismatch');
    expect(approved.windowsAsked).toEqual([]);
    expect(await codeOf(gate({ template: null }).check('acc_1', a, chatOnly))).toBe('template_not_found');
    expect(await codeOf(gate({ template: { status: 'pending', placeholder_count: 1 } }).check('acc_1', a, chatOnly))).toBe('template_not_approved');
  });

  it('leaves channels without chat alone', async () => {
    const sms: SenderPlan = { plan: ['sms'], senders: { sms: { e164: '+14155550100' } } };
    const { check, windowsAsked } = gate({ open: false });
    expect(await check('acc_1', { channel: 'sms', recipient: TO, content: { text: 'hi' } }, sms)).toBe(sms);
    expect(windowsAsked).toEqual([]);
  });
});
