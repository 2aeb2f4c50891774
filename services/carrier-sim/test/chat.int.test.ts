import { createHmac, timingSafeEqual } from 'node:crypto';
import { SANDBOX_CREDENTIALS } from '@switchboard/runtime';
import { buildSim, startSim, type RunningSim } from './support/sim-process';
import { startWebhookReceiver, type ReceivedRequest, type WebhookReceiver } from './support/webhook-receiver';

const APP_SECRET = SANDBOX_CREDENTIALS.chat.appSecret;
const TOKEN: string = SANDBOX_CREDENTIALS.chat.accessToken;
const WABA = '100000000000001';
const BUSINESS = '15550001000';

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

function signatureValid(r: ReceivedRequest): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', APP_SECRET).update(r.rawBody).digest('hex')}`);
  const given = Buffer.from(String(r.headers['x-hub-signature-256'] ?? ''));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

// One notification may carry several statuses (the Cloud API batches them under load, and so does the simulator).
const statusesOf = (r: ReceivedRequest): any[] => (r.json?.entry ?? []).flatMap((e: any) => (e.changes ?? []).flatMap((c: any) => c.value?.statuses ?? []));
const statusIn = (r: ReceivedRequest, wamid: string, status: string) => statusesOf(r).find((s) => s.id === wamid && s.status === status);
const messageOf = (r: ReceivedRequest) => r.json?.entry?.[0]?.changes?.[0]?.value?.messages?.[0];
const templateUpdateOf = (r: ReceivedRequest) => {
  const change = r.json?.entry?.[0]?.changes?.[0];
  return change?.field === 'message_template_status_update' ? change.value : undefined;
};

async function cloudApi(path: string, body: unknown, token = TOKEN) {
  const res = await fetch(`${sim.httpUrl}/v21.0/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const sendText = (to: string, text: string, ref: string) =>
  cloudApi(`${BUSINESS}/messages`, {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'text',
    text: { body: text },
    biz_opaque_callback_data: ref,
  });

const listJson = async (path: string): Promise<any> => (await fetch(`${sim.httpUrl}${path}`)).json();

async function inbound(body: Record<string, unknown>) {
  const res = await fetch(`${sim.httpUrl}/sim/inbound`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

async function openWindow(customer: string) {
  const res = await inbound({ channel: 'chat', from: `+${customer}`, to: `+${BUSINESS}`, text: 'hello' });
  expect(res.status).toBe(202);
  await receiver.waitFor((r) => messageOf(r)?.id === res.body.id);
}

describe('chat (WhatsApp Cloud API)', () => {
  it('refuses a free-form message outside the 24 h window, then sends with signed sent/delivered/read', async () => {
    const closed = await sendText('15550000100', 'too early', 'msg_early');
    expect(closed.status).toBe(400);
    expect(closed.body.error.code).toBe(131047);

    const customerMessage = await inbound({ channel: 'chat', from: '+15550000100', to: `+${BUSINESS}`, text: 'hi there' });
    expect(customerMessage.status).toBe(202);
    const pushed = await receiver.waitFor((r) => messageOf(r)?.id === customerMessage.body.id);
    expect(signatureValid(pushed)).toBe(true);
    expect(messageOf(pushed)).toMatchObject({ from: '15550000100', type: 'text', text: { body: 'hi there' } });
    expect(pushed.json.entry[0].changes[0].value.metadata.phone_number_id).toBe(BUSINESS);

    const sent = await sendText('15550000100', 'hello back', 'msg_chat_1');
    expect(sent.status).toBe(200);
    const wamid = sent.body.messages[0].id;
    expect(wamid).toMatch(/^wamid\./);
    expect(sent.body.contacts[0].wa_id).toBe('15550000100');

    for (const status of ['sent', 'delivered', 'read']) {
      const hook = await receiver.waitFor((r) => statusIn(r, wamid, status) !== undefined);
      expect(signatureValid(hook)).toBe(true);
      expect(statusIn(hook, wamid, status)).toMatchObject({
        recipient_id: '15550000100',
        biz_opaque_callback_data: 'msg_chat_1',
        timestamp: expect.stringMatching(/^\d+$/),
      });
    }

    const record = await listJson('/sim/sends?channel=chat&client_ref=msg_chat_1');
    expect(record.data).toEqual([
      expect.objectContaining({ outcome: 'accepted', upstream_message_id: wamid, to: '+15550000100', from: `+${BUSINESS}`, text: 'hello back' }),
    ]);
  });

  it('sends free-form outside the window once PUT /sim/behaviour stops enforcing it, and refuses again once it enforces', async () => {
    const behaviour = (body: unknown) =>
      fetch(`${sim.httpUrl}/sim/behaviour`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    try {
      expect((await behaviour({ enforce_chat_window: false })).status).toBe(200);
      expect((await sendText('15550000190', 'no window needed', 'msg_window_off')).status).toBe(200);
    } finally {
      expect((await behaviour({ enforce_chat_window: true })).status).toBe(200);
    }
    expect((await sendText('15550000190', 'window again', 'msg_window_on')).body.error.code).toBe(131047);
  });

  it('answers 131026 for a number that is not a chat user', async () => {
    const res = await sendText('15550000101', 'x', 'msg_not_user');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 131026, type: 'OAuthException', error_data: { messaging_product: 'whatsapp' } });
  });

  it('rejects 03 permanently, a malformed body with 131009, and a bad token with 401', async () => {
    await openWindow('15550000103');
    expect((await sendText('15550000103', 'x', 'msg_03')).body.error.code).toBe(131009);
    const malformed = await cloudApi(`${BUSINESS}/messages`, { messaging_product: 'whatsapp', to: '15550000100', type: 'text', text: {} });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe(131009);
    expect((await cloudApi(`${BUSINESS}/messages`, {}, 'wrong')).status).toBe(401);
  });

  it('answers a body that is not JSON with a Graph error, on the fast path as on the express route', async () => {
    const res = await fetch(`${sim.httpUrl}/v21.0/${BUSINESS}/messages`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}` },
      body: '{"messaging_product":',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error).toMatchObject({ code: 100, type: 'OAuthException' });
  });

  it('delivers every status of sends made together, each notification signed', async () => {
    const recipients = Array.from({ length: 12 }, (_, i) => `155500002${String(10 + i)}`);
    await Promise.all(recipients.map((to) => openWindow(to)));
    const sent = await Promise.all(recipients.map((to, i) => sendText(to, 'together', `msg_together_${i}`)));
    const wamids = sent.map((s) => s.body.messages[0].id as string);
    for (const wamid of wamids) await receiver.waitFor((r) => statusIn(r, wamid, 'read') !== undefined);
    const carrying = receiver.received().filter((r) => statusesOf(r).some((s) => wamids.includes(s.id)));
    expect(carrying.every(signatureValid)).toBe(true);
    const seen = carrying.flatMap((r) => statusesOf(r).filter((s) => wamids.includes(s.id)));
    expect(seen).toHaveLength(wamids.length * 3);
    for (const wamid of wamids) expect(seen.filter((s) => s.id === wamid).map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
  });

  it('throttles an 05 number three times with 130429, then accepts it', async () => {
    await openWindow('15550000105');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await sendText('15550000105', 'x', 'msg_throttled')).status);
    expect(statuses).toEqual([429, 429, 429, 200]);
    const attempts = (await listJson('/sim/sends?client_ref=msg_throttled')).data;
    expect(attempts.map((a: any) => a.outcome)).toEqual(['throttled', 'throttled', 'throttled', 'accepted']);
    expect(attempts[0].error_code).toBe('130429');
  });

  it('reports 04 as sent only and 06 as delivered but never read', async () => {
    await openWindow('15550000104');
    await openWindow('15550000106');
    const four = (await sendText('15550000104', 'x', 'msg_04')).body.messages[0].id;
    const six = (await sendText('15550000106', 'x', 'msg_06')).body.messages[0].id;
    await receiver.waitFor((r) => statusIn(r, six, 'delivered') !== undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const seen = (id: string) =>
      receiver.received().flatMap((r) =>
        statusesOf(r)
          .filter((s) => s.id === id)
          .map((s) => s.status),
      );
    expect(seen(four)).toEqual(['sent']);
    expect(seen(six)).toEqual(['sent', 'delivered']);
  });

  it('creates a template, approves it by webhook, and checks template sends', async () => {
    const create = await cloudApi(`${WABA}/message_templates`, {
      name: 'order_ready',
      language: 'en_US',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Hi {{1}}, order {{2}} is ready' }],
    });
    expect(create.status).toBe(200);
    expect(create.body).toMatchObject({ status: 'PENDING', category: 'UTILITY' });
    const update = await receiver.waitFor((r) => templateUpdateOf(r)?.message_template_name === 'order_ready');
    expect(signatureValid(update)).toBe(true);
    expect(templateUpdateOf(update)).toMatchObject({ event: 'APPROVED', message_template_id: Number(create.body.id), message_template_language: 'en_US' });

    const template = (name: string, params: string[]) =>
      cloudApi(`${BUSINESS}/messages`, {
        messaging_product: 'whatsapp',
        to: '15550000177',
        type: 'template',
        biz_opaque_callback_data: `msg_tpl_${name}_${params.length}`,
        template: { name, language: { code: 'en_US' }, components: [{ type: 'body', parameters: params.map((text) => ({ type: 'text', text })) }] },
      });
    // Templates pass the window check: 15550000177 never wrote in.
    const ok = await template('order_ready', ['Ann', '42']);
    expect(ok.status).toBe(200);
    expect((await template('order_ready', ['Ann'])).body.error.code).toBe(132000);
    expect((await template('never_created', [])).body.error.code).toBe(132001);
    const listed = (await listJson('/sim/sends?client_ref=msg_tpl_order_ready_2')).data;
    expect(listed[0].text).toBe('Hi Ann, order 42 is ready');

    await cloudApi(`${WABA}/message_templates`, { name: 'reject_me', language: 'en_US', category: 'MARKETING', components: [{ type: 'BODY', text: 'x' }] });
    const rejected = await receiver.waitFor((r) => templateUpdateOf(r)?.message_template_name === 'reject_me');
    expect(templateUpdateOf(rejected).event).toBe('REJECTED');
    expect((await template('reject_me', [])).body.error.code).toBe(132001);
    const templates = (await listJson('/sim/templates')).data;
    expect(templates.map((t: any) => [t.name, t.status])).toEqual(
      expect.arrayContaining([
        ['order_ready', 'APPROVED'],
        ['reject_me', 'REJECTED'],
      ]),
    );
  });

  it('pushes a button reply with the context of the message it answers', async () => {
    await openWindow('15550000110');
    const question = await cloudApi(`${BUSINESS}/messages`, {
      messaging_product: 'whatsapp',
      to: '15550000110',
      type: 'interactive',
      biz_opaque_callback_data: 'msg_question',
      interactive: { type: 'button', body: { text: 'Confirm?' }, action: { buttons: [{ type: 'reply', reply: { id: 'yes', title: 'Yes' } }] } },
    });
    const reply = await inbound({
      channel: 'chat',
      from: '+15550000110',
      to: `+${BUSINESS}`,
      reply: { id: 'yes', title: 'Yes' },
      context_message_id: 'msg_question',
    });
    expect(reply.status).toBe(202);
    const hook = await receiver.waitFor((r) => messageOf(r)?.id === reply.body.id);
    expect(messageOf(hook)).toMatchObject({
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes' } },
      context: { from: BUSINESS, id: question.body.messages[0].id },
    });
    const unknown = await inbound({ channel: 'chat', from: '+15550000110', to: `+${BUSINESS}`, text: 'x', context_message_id: 'msg_nope' });
    expect(unknown.status).toBe(404);
    expect((await inbound({ channel: 'fax', from: '+1', to: '+2' })).status).toBe(400);
  });
});
