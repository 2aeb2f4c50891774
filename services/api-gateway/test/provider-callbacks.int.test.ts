import { createHash, createHmac } from 'node:crypto';
import type { ProviderCallbackJob } from '@switchboard/queues';
import { problemOf, startGatewayHarness, type GatewayHarness } from './support/gateway-harness';

const APP_SECRET = 'test-chat-app-secret';
const VERIFY_TOKEN = 'test-verify-token';
const RBM_TOKEN = 'test-rbm-client-token';

let h: GatewayHarness;

beforeAll(async () => {
  h = await startGatewayHarness({ CHAT_APP_SECRET: APP_SECRET, CHAT_VERIFY_TOKEN: VERIFY_TOKEN, RBM_CLIENT_TOKEN: RBM_TOKEN });
});

afterAll(async () => {
  await h?.close();
});

/** A Cloud API status webhook as upstream-wire.md describes it. */
function statusWebhook(wamid: string, status: string): string {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '100000000000001',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '14155550100', phone_number_id: '14155550100' },
              statuses: [
                { id: wamid, status, timestamp: '1700000000', recipient_id: '14155552671', biz_opaque_callback_data: 'msg_01M830NRVQG7JH2MJ0JXDCTT8S' },
              ],
            },
          },
        ],
      },
    ],
  });
}

function postChat(body: string, signature: string | undefined): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature !== undefined) headers['x-hub-signature-256'] = signature;
  return h.request('/v1/providers/chat/webhook', { method: 'POST', headers, body });
}

const sign = (body: string, secret = APP_SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');

describe('chat webhook (docs/api.md#upstream-callbacks)', () => {
  it('answers the hub.challenge handshake only with the verify token', async () => {
    const ok = await h.request(`/v1/providers/chat/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('1158201444');
    for (const query of [
      `hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1`,
      `hub.mode=unsubscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`,
      '',
    ]) {
      const problem = await problemOf(await h.request(`/v1/providers/chat/webhook?${query}`));
      expect(problem.status).toBe(403);
      expect(problem.contentType).toMatch(/^application\/problem\+json/);
    }
  });

  it('refuses forged or missing signatures with 401 and queues nothing', async () => {
    const body = statusWebhook('wamid.forged', 'delivered');
    for (const signature of [undefined, 'sha256=00', sign(body, 'not-the-secret'), sign(`${body} `), sign(body).toUpperCase().replace('SHA256', 'sha1')]) {
      const problem = await problemOf(await postChat(body, signature));
      expect(problem).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
    }
    expect(await h.callbackQueue.count()).toBe(0);
  });

  it('verifies the raw bytes, queues one normalised job, and ignores a redelivery', async () => {
    const body = statusWebhook('wamid.HBgLMTQxNTU1NTI2NzEVAgARGBI', 'delivered');
    const first = await postChat(body, sign(body));
    expect(first.status).toBe(200);
    expect((await postChat(body, sign(body))).status).toBe(200);
    const job = await h.callbackQueue.getJob(`chat-${sha256(body)}`);
    const data = job?.data as ProviderCallbackJob;
    expect(data).toMatchObject({
      source: 'chat',
      receipts: [{ channel: 'chat', upstreamMessageId: 'wamid.HBgLMTQxNTU1NTI2NzEVAgARGBI', status: 'delivered', clientRef: 'msg_01M830NRVQG7JH2MJ0JXDCTT8S' }],
      inbound: [],
      template_updates: [],
    });
    expect(await h.callbackQueue.count()).toBe(1);
  });

  it('answers 415, 413 and 400 like every JSON route', async () => {
    const text = await h.request('/v1/providers/chat/webhook', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect(text.status).toBe(415);
    const notJson = 'not json';
    expect((await postChat(notJson, sign(notJson))).status).toBe(400);
    const huge = JSON.stringify({ pad: 'x'.repeat(300 * 1024) });
    expect((await postChat(huge, sign(huge))).status).toBe(413);
  });
});

describe('RCS events (RBM Pub/Sub push)', () => {
  function push(event: object): { body: string; signature: string } {
    const json = Buffer.from(JSON.stringify(event));
    const body = JSON.stringify({
      message: { data: json.toString('base64'), messageId: '1234', publishTime: '2026-01-01T00:00:00Z' },
      subscription: 'projects/p/subscriptions/s',
    });
    return { body, signature: createHmac('sha512', RBM_TOKEN).update(json).digest('base64') };
  }

  function postRcs(body: string, signature?: string): Promise<Response> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (signature) headers['x-goog-signature'] = signature;
    return h.request('/v1/providers/rcs/events', { method: 'POST', headers, body });
  }

  it('queues a verified event once and refuses a forged one', async () => {
    const before = await h.callbackQueue.count();
    const event = {
      senderPhoneNumber: '+14155552671',
      eventType: 'DELIVERED',
      eventId: 'ev-1',
      messageId: 'msg_01M830NRVQG7JH2MJ0JXDCTT8S',
      sendTime: '2026-01-01T00:00:00Z',
      agentId: 'a',
    };
    const { body, signature } = push(event);
    expect((await problemOf(await postRcs(body))).status).toBe(401);
    expect((await problemOf(await postRcs(body, createHmac('sha512', 'wrong').update(body).digest('base64')))).status).toBe(401);
    expect(await h.callbackQueue.count()).toBe(before);

    expect((await postRcs(body, signature)).status).toBe(200);
    expect((await postRcs(body, signature)).status).toBe(200);
    const data = JSON.parse(body).message.data as string;
    const job = await h.callbackQueue.getJob(`rcs-${sha256(data)}`);
    expect(job?.data).toMatchObject({ source: 'rcs', receipts: [{ channel: 'rcs', status: 'delivered', upstreamMessageId: event.messageId }] });
    expect((await h.callbackQueue.count()) - before).toBe(1);
  });

  it('queues the receipts of events arriving together in fewer jobs, each receipt once, and answers each event', async () => {
    const before = new Set((await h.callbackQueue.getJobs(['waiting', 'delayed', 'prioritized'])).map((job) => job.id));
    const events = Array.from({ length: 100 }, (_, i) =>
      push({
        senderPhoneNumber: '+14155552671',
        eventType: 'READ',
        eventId: `ev-group-${i}`,
        messageId: `msg_group_${i}`,
        sendTime: '2026-01-01T00:00:00Z',
        agentId: 'a',
      }),
    );
    const answers = await Promise.all(events.map(({ body, signature }) => postRcs(body, signature)));
    expect(answers.map((answer) => answer.status)).toEqual(events.map(() => 200));

    const jobs = (await h.callbackQueue.getJobs(['waiting', 'delayed', 'prioritized'])).filter((job) => !before.has(job.id));
    const receipts = jobs.flatMap((job) => (job.data as ProviderCallbackJob).receipts.map((receipt) => receipt.upstreamMessageId));
    expect(receipts.sort()).toEqual(events.map((_, i) => `msg_group_${i}`).sort());
    // Events that arrived while a job was being queued went into the next one together (CALLBACK_RECEIPTS_GROUP_MAX).
    expect(jobs.length).toBeLessThan(events.length);
    expect(jobs.some((job) => String(job.id).startsWith('rcs-group-'))).toBe(true);
  });
});
