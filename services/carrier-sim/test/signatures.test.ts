import { createHmac } from 'node:crypto';
import { buildStatusNotification, buildTemplateStatusNotification } from '../src/webhooks/chat-webhook.sender';
import { buildPubSubPush } from '../src/webhooks/rbm-event.sender';
import { googSignature, hubSignature256 } from '../src/webhooks/signatures';

describe('webhook signatures', () => {
  it('signs chat webhooks as Meta does: sha256= hex HMAC of the raw body', () => {
    const body = '{"object":"whatsapp_business_account"}';
    const expected = createHmac('sha256', 'app-secret').update(body).digest('hex');
    expect(hubSignature256('app-secret', body)).toBe(`sha256=${expected}`);
  });

  it('signs RBM pushes with base64 HMAC-SHA512 over the decoded message.data, as Google documents', () => {
    const push = buildPubSubPush('client-token', 'agent-1', { senderPhoneNumber: '+15550000100', eventType: 'DELIVERED' }, '2025-01-01T00:00:00.000Z');
    const envelope = JSON.parse(push.body);
    const decoded = Buffer.from(envelope.message.data, 'base64');
    // Google's sample verifier, verbatim in spirit: decode message.data, HMAC it with the client token.
    const verifier = createHmac('sha512', 'client-token').update(decoded).digest('base64');
    expect(push.signature).toBe(verifier);
    expect(googSignature('client-token', decoded)).toBe(verifier);
    expect(JSON.parse(decoded.toString('utf8'))).toEqual({ senderPhoneNumber: '+15550000100', eventType: 'DELIVERED' });
    expect(envelope.message.messageId).toMatch(/^\d+$/);
    expect(envelope.message.publishTime).toBe('2025-01-01T00:00:00.000Z');
    expect(envelope.subscription).toContain('agent-1');
  });

  it('builds a Cloud API status notification with the echoed callback data', () => {
    const payload = buildStatusNotification(
      '100000000000001',
      { phoneNumberId: '15550001000', wamid: 'wamid.X', status: 'delivered', recipientId: '15550000100', bizOpaqueCallbackData: 'msg_1' },
      1_700_000_000_500,
    );
    expect(payload.object).toBe('whatsapp_business_account');
    const change = payload.entry[0].changes[0] as { field: string; value: Record<string, unknown> };
    expect(change.field).toBe('messages');
    expect(change.value.metadata).toEqual({ display_phone_number: '15550001000', phone_number_id: '15550001000' });
    expect(change.value.statuses).toEqual([
      { id: 'wamid.X', status: 'delivered', timestamp: '1700000000', recipient_id: '15550000100', biz_opaque_callback_data: 'msg_1' },
    ]);
  });

  it('builds a template status update', () => {
    const payload = buildTemplateStatusNotification(
      '100000000000001',
      {
        id: '123456789012345',
        name: 'order_ready',
        language: 'en_US',
        category: 'UTILITY',
        status: 'APPROVED',
        components: [],
        body_text: 'Hi {{1}}',
        placeholder_count: 1,
        rejected_reason: null,
        created_at: '',
        reviewed_at: '',
      },
      1_700_000_000_000,
    );
    expect(payload.entry[0].changes[0]).toEqual({
      field: 'message_template_status_update',
      value: {
        event: 'APPROVED',
        message_template_id: 123456789012345,
        message_template_name: 'order_ready',
        message_template_language: 'en_US',
        reason: 'NONE',
        message_template_category: 'UTILITY',
      },
    });
  });
});
