import { ProviderError } from '../src/provider-error';
import type { OutboundMessage, RcsAdapter } from '../src/provider.types';
import { createRcsAdapter } from '../src/rcs/rcs.adapter';
import { RecordingServer, startRecordingServer } from './support/recording-server';

const googleError = (code: number, status: string) => ({ error: { code, status, message: `${status} happened` } });

describe('rcs adapter against an RBM double', () => {
  let upstream: RecordingServer;
  let adapter: RcsAdapter;
  const message: OutboundMessage = { clientRef: 'msg_01RCS', to: '+15550001100', from: '+15550009000', content: { kind: 'text', text: 'Hello RCS' } };

  beforeEach(async () => {
    upstream = await startRecordingServer();
    adapter = createRcsAdapter({ config: { baseUrl: `${upstream.baseUrl}/`, accessToken: 'rbm-token', agentId: 'agent-42', timeoutMs: 300 } });
  });
  afterEach(() => upstream.close());

  it('checks capability with a GET on phones/{+E164}/capabilities', async () => {
    upstream.answerNext({ status: 200, body: { features: ['RICHCARD_STANDALONE', 'ACTION_DIAL'] } });
    await expect(adapter.isReachable('+15550001100')).resolves.toBe(true);
    const [request] = upstream.requests;
    expect(request.method).toBe('GET');
    const url = new URL(request.url, upstream.baseUrl);
    expect(url.pathname).toBe('/v1/phones/+15550001100/capabilities');
    expect(url.searchParams.get('agentId')).toBe('agent-42');
    expect(url.searchParams.get('requestId')).toMatch(/^[0-9a-f-]{36}$/);
    expect(request.headers.authorization).toBe('Bearer rbm-token');
  });

  it('reports a 404 capability answer as not reachable', async () => {
    upstream.answerNext({ status: 404, body: googleError(404, 'NOT_FOUND') });
    await expect(adapter.isReachable('+15550001102')).resolves.toBe(false);
  });

  it('throws on other capability failures', async () => {
    upstream.answerNext({ status: 503, body: googleError(503, 'UNAVAILABLE') });
    await expect(adapter.isReachable('+15550001100')).rejects.toMatchObject({ kind: 'transient', upstreamCode: 'UNAVAILABLE' });
  });

  it('posts the message to agentMessages with our messageId', async () => {
    upstream.answerNext({
      status: 200,
      body: { name: 'phones/+15550001100/agentMessages/msg_01RCS', sendTime: '2025-01-01T00:00:00Z', contentMessage: { text: 'Hello RCS' } },
    });
    await expect(adapter.send(message)).resolves.toEqual({ upstreamMessageId: 'msg_01RCS' });
    const [request] = upstream.requests;
    expect(request.method).toBe('POST');
    const url = new URL(request.url, upstream.baseUrl);
    expect(url.pathname).toBe('/v1/phones/+15550001100/agentMessages');
    expect(url.searchParams.get('messageId')).toBe('msg_01RCS');
    expect(url.searchParams.get('agentId')).toBe('agent-42');
    expect(request.headers.authorization).toBe('Bearer rbm-token');
    expect(request.body).toEqual({ contentMessage: { text: 'Hello RCS' } });
  });

  it('treats 409 ALREADY_EXISTS as accepted', async () => {
    upstream.answerNext({ status: 409, body: googleError(409, 'ALREADY_EXISTS') });
    await expect(adapter.send(message)).resolves.toEqual({ upstreamMessageId: 'msg_01RCS', alreadyAccepted: true });
  });

  it.each([
    [404, 'NOT_FOUND', 'unreachable'],
    [429, 'RESOURCE_EXHAUSTED', 'throttled'],
    [400, 'INVALID_ARGUMENT', 'permanent'],
    [403, 'PERMISSION_DENIED', 'permanent'],
    [500, 'INTERNAL', 'transient'],
  ])('maps send HTTP %i %s to %s', async (status, googleStatus, kind) => {
    upstream.answerNext({ status, body: googleError(status, googleStatus) });
    const error = await adapter.send(message).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind, upstreamCode: googleStatus });
  });

  it('treats a timeout as transient', async () => {
    upstream.answerNext({ status: 200, body: {}, delayMs: 1000 });
    await expect(adapter.send(message)).rejects.toMatchObject({ kind: 'transient' });
  });

  it('refuses chat-only content and malformed numbers without calling the upstream', async () => {
    await expect(adapter.send({ ...message, content: { kind: 'chat', type: 'interactive', payload: {} } })).rejects.toMatchObject({ kind: 'permanent' });
    await expect(adapter.isReachable('15550001100/../x')).rejects.toMatchObject({ kind: 'permanent', upstreamCode: 'invalid_recipient' });
    expect(upstream.requests).toHaveLength(0);
  });
});
