import { createChatAdapter } from '../src/chat/chat.adapter';
import { ProviderError } from '../src/provider-error';
import type { ChatAdapter, OutboundMessage } from '../src/provider.types';
import { RecordingServer, startRecordingServer } from './support/recording-server';

const graphError = (code: number, message = 'error') => ({
  error: { message, type: 'OAuthException', code, error_data: { messaging_product: 'whatsapp', details: message }, fbtrace_id: 'AbC' },
});
const accepted = (id: string) => ({ messaging_product: 'whatsapp', contacts: [{ input: '15550001100', wa_id: '15550001100' }], messages: [{ id }] });

describe('chat adapter against a Cloud API double', () => {
  let upstream: RecordingServer;
  let adapter: ChatAdapter;
  const base: OutboundMessage = { clientRef: 'msg_01HZX', to: '+15550001100', from: '+15550009000', content: { kind: 'text', text: 'Hello!' } };

  beforeEach(async () => {
    upstream = await startRecordingServer();
    adapter = createChatAdapter({ config: { baseUrl: upstream.baseUrl, accessToken: 'token-1', wabaId: 'waba-7', timeoutMs: 300 } });
  });
  afterEach(() => upstream.close());

  it('posts a text message to /v21.0/{phone-number-id}/messages with the bearer token', async () => {
    upstream.answerNext({ status: 200, body: accepted('wamid.ABC') });
    await expect(adapter.send(base)).resolves.toEqual({ upstreamMessageId: 'wamid.ABC' });
    const [request] = upstream.requests;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/v21.0/15550009000/messages');
    expect(request.headers.authorization).toBe('Bearer token-1');
    expect(request.headers['content-type']).toMatch(/^application\/json/);
    expect(request.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '15550001100',
      type: 'text',
      text: { body: 'Hello!' },
      biz_opaque_callback_data: 'msg_01HZX',
    });
  });

  it('uses the given phone-number-id and sends typed chat payloads as they are', async () => {
    upstream.answerNext({ status: 200, body: accepted('wamid.INT') });
    const interactive = { type: 'button', body: { text: 'Pick one' }, action: { buttons: [{ type: 'reply', reply: { id: 'a', title: 'A' } }] } };
    await adapter.send({ ...base, chatPhoneNumberId: '1098765', content: { kind: 'chat', type: 'interactive', payload: interactive } });
    expect(upstream.requests[0].url).toBe('/v21.0/1098765/messages');
    expect(upstream.requests[0].body).toMatchObject({ type: 'interactive', interactive });
  });

  it('normalises template language and flat parameters into the Cloud API shape', async () => {
    upstream.answerNext({ status: 200, body: accepted('wamid.TPL') });
    const payload = { name: 'order_update', language: 'en_US', parameters: [{ type: 'text', text: 'A-17' }] };
    await adapter.send({ ...base, content: { kind: 'chat', type: 'template', payload } });
    expect(upstream.requests[0].body).toMatchObject({
      type: 'template',
      template: { name: 'order_update', language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'A-17' }] }] },
    });
  });

  it.each([
    [400, 131026, 'unreachable'],
    [400, 131047, 'window_closed'],
    [400, 132001, 'template_invalid'],
    [400, 132000, 'template_invalid'],
    [400, 131009, 'permanent'],
    [500, 131000, 'transient'],
  ])('maps HTTP %i code %i to %s', async (status, code, kind) => {
    upstream.answerNext({ status, body: graphError(code) });
    const error = await adapter.send(base).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind, upstreamCode: String(code) });
  });

  it('maps 429 throttling with Retry-After', async () => {
    upstream.answerNext({ status: 429, body: graphError(130429, 'Rate limit hit'), headers: { 'Retry-After': '3' } });
    await expect(adapter.send(base)).rejects.toMatchObject({ kind: 'throttled', upstreamCode: '130429', retryAfterMs: 3000 });
  });

  it('treats a timeout as transient', async () => {
    upstream.answerNext({ status: 200, body: accepted('wamid.LATE'), delayMs: 1000 });
    await expect(adapter.send(base)).rejects.toMatchObject({ kind: 'transient' });
  });

  it('treats a refused connection as transient', async () => {
    await upstream.close();
    await expect(adapter.send(base)).rejects.toMatchObject({ kind: 'transient' });
    upstream = await startRecordingServer();
  });

  it('treats a 2xx without a message id as transient', async () => {
    upstream.answerNext({ status: 200, body: { messaging_product: 'whatsapp' } });
    await expect(adapter.send(base)).rejects.toMatchObject({ kind: 'transient', upstreamCode: 'malformed_response' });
  });

  it('creates a template under the WABA', async () => {
    upstream.answerNext({ status: 200, body: { id: '594425479261596', status: 'PENDING', category: 'UTILITY' } });
    const components = [{ type: 'BODY', text: 'Order {{1}} is on its way' }];
    await expect(adapter.createTemplate({ name: 'order_update', language: 'en_US', category: 'utility', components })).resolves.toEqual({
      upstreamTemplateId: '594425479261596',
      status: 'pending',
    });
    const [request] = upstream.requests;
    expect(request.url).toBe('/v21.0/waba-7/message_templates');
    expect(request.headers.authorization).toBe('Bearer token-1');
    expect(request.body).toEqual({ name: 'order_update', language: 'en_US', category: 'UTILITY', components });
  });

  it('maps a refused template creation', async () => {
    upstream.answerNext({ status: 400, body: graphError(100, 'Invalid parameter') });
    await expect(adapter.createTemplate({ name: 'x', language: 'en', category: 'marketing', components: [] })).rejects.toMatchObject({
      kind: 'permanent',
      upstreamCode: '100',
    });
  });
});
