import { createHmac } from 'node:crypto';
import { SANDBOX_CREDENTIALS } from '@switchboard/runtime';
import { GATEWAY_CALLBACK_PATHS } from '../src/config';
import { buildSim, startSim, type RunningSim } from './support/sim-process';
import { startWebhookReceiver, type ReceivedRequest, type WebhookReceiver } from './support/webhook-receiver';

const CLIENT_TOKEN = SANDBOX_CREDENTIALS.rbm.clientToken;
const TOKEN: string = SANDBOX_CREDENTIALS.rbm.accessToken;
const AGENT = 'switchboard_test_agent';

jest.setTimeout(30_000);

let sim: RunningSim;
let receiver: WebhookReceiver;

beforeAll(async () => {
  await buildSim();
  receiver = await startWebhookReceiver();
  sim = await startSim({ SIM_GATEWAY_URL: receiver.url }, { receipt_delay_ms: 50 });
});

afterAll(async () => {
  await sim?.stop();
  await receiver?.close();
});

/** Verifies the push the way Google's sample webhook does, and returns the decoded RBM event. */
function verifiedEvent(r: ReceivedRequest): any {
  const data = Buffer.from(r.json.message.data, 'base64');
  const expected = createHmac('sha512', CLIENT_TOKEN).update(data).digest('base64');
  expect(r.headers['x-goog-signature']).toBe(expected);
  return JSON.parse(data.toString('utf8'));
}

const eventOf = (r: ReceivedRequest) =>
  r.path === GATEWAY_CALLBACK_PATHS.rbm ? JSON.parse(Buffer.from(r.json.message.data, 'base64').toString('utf8')) : undefined;

async function rbm(method: string, path: string, body?: unknown, token = TOKEN) {
  const res = await fetch(`${sim.httpUrl}/v1/${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const send = (phone: string, messageId: string, text = 'hello') =>
  rbm('POST', `phones/${encodeURIComponent(phone)}/agentMessages?messageId=${messageId}&agentId=${AGENT}`, { contentMessage: { text } });

describe('rcs (RBM API v1)', () => {
  it('answers the capability check by number', async () => {
    const capable = await rbm('GET', `phones/${encodeURIComponent('+15550000100')}/capabilities?requestId=r1&agentId=${AGENT}`);
    expect(capable.status).toBe(200);
    expect(capable.body.features).toContain('RICHCARD_STANDALONE');
    const notCapable = await rbm('GET', `phones/${encodeURIComponent('+15550000102')}/capabilities?requestId=r2&agentId=${AGENT}`);
    expect(notCapable).toEqual({ status: 404, body: { error: { code: 404, status: 'NOT_FOUND', message: expect.any(String) } } });
    expect((await rbm('GET', `phones/${encodeURIComponent('+15550000100')}/capabilities?requestId=r3&agentId=${AGENT}`, undefined, 'bad')).status).toBe(401);
  });

  it('sends, refuses a duplicate messageId with 409, and pushes signed DELIVERED and READ events', async () => {
    const first = await send('+15550000100', 'msg_rcs_1');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ name: 'phones/+15550000100/agentMessages/msg_rcs_1', contentMessage: { text: 'hello' } });
    const duplicate = await send('+15550000100', 'msg_rcs_1');
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.status).toBe('ALREADY_EXISTS');

    for (const eventType of ['DELIVERED', 'READ']) {
      const push = await receiver.waitFor((r) => eventOf(r)?.messageId === 'msg_rcs_1' && eventOf(r)?.eventType === eventType);
      expect(verifiedEvent(push)).toMatchObject({ senderPhoneNumber: '+15550000100', eventType, agentId: AGENT, eventId: expect.any(String) });
      expect(push.json.message.messageId).toMatch(/^\d+$/);
    }
    const attempts = ((await (await fetch(`${sim.httpUrl}/sim/sends?channel=rcs&client_ref=msg_rcs_1`)).json()) as any).data;
    expect(attempts.map((a: any) => [a.outcome, a.error_code])).toEqual([
      ['accepted', null],
      ['rejected', 'ALREADY_EXISTS'],
    ]);
  });

  it('answers a body that is not JSON with INVALID_ARGUMENT, and a wrong token with 401, on the send endpoint', async () => {
    const path = `${sim.httpUrl}/v1/phones/${encodeURIComponent('+15550000100')}/agentMessages?messageId=msg_rcs_bad_json&agentId=${AGENT}`;
    const badJson = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}` },
      body: '{"contentMessage":',
    });
    expect(badJson.status).toBe(400);
    expect(((await badJson.json()) as any).error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(
      (
        await rbm(
          'POST',
          `phones/${encodeURIComponent('+15550000100')}/agentMessages?messageId=msg_rcs_bad_token&agentId=${AGENT}`,
          { contentMessage: { text: 'x' } },
          'bad',
        )
      ).status,
    ).toBe(401);
  });

  it('maps 02, 03 and 05 to NOT_FOUND, INVALID_ARGUMENT and RESOURCE_EXHAUSTED', async () => {
    expect((await send('+15550000102', 'msg_rcs_02')).body.error.status).toBe('NOT_FOUND');
    expect((await send('+15550000103', 'msg_rcs_03')).status).toBe(400);
    const statuses: number[] = [];
    // The same messageId is reused across throttled retries, as the dispatcher does; it is only taken once accepted.
    for (let i = 0; i < 4; i += 1) statuses.push((await send('+15550000105', 'msg_rcs_05')).status);
    expect(statuses).toEqual([429, 429, 429, 200]);
    expect((await rbm('POST', `phones/${encodeURIComponent('+15550000100')}/agentMessages?messageId=m&agentId=${AGENT}`, { contentMessage: {} })).status).toBe(
      400,
    );
  });

  it('pushes user messages and suggestion replies from /sim/inbound', async () => {
    const post = (body: unknown) =>
      fetch(`${sim.httpUrl}/sim/inbound`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then(
        async (res) => ({ status: res.status, body: (await res.json()) as any }),
      );
    const text = await post({ channel: 'rcs', from: '+15550000100', to: '+15550001000', text: 'hi agent' });
    expect(text.status).toBe(202);
    const textPush = await receiver.waitFor((r) => eventOf(r)?.messageId === text.body.id);
    expect(verifiedEvent(textPush)).toMatchObject({ senderPhoneNumber: '+15550000100', text: 'hi agent', agentId: AGENT });

    const reply = await post({ channel: 'rcs', from: '+15550000100', to: '+15550001000', reply: { id: 'yes', title: 'Yes' } });
    const replyPush = await receiver.waitFor((r) => eventOf(r)?.messageId === reply.body.id);
    expect(verifiedEvent(replyPush).suggestionResponse).toEqual({ postbackData: 'yes', text: 'Yes', type: 'REPLY' });
  });
});
