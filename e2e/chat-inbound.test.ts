import { randomBytes } from 'node:crypto';
import { eventually } from '@switchboard/devstack';
import { customerWrites, hubSignature, isRead, messageUntil, startChatWorld, type ChatWorld } from './support/chat-e2e';

let world: ChatWorld;
const CUSTOMER = '+447911123430';

// Starting the whole stack can take longer than jest's default 5 s hook timeout on a busy machine.
beforeAll(async () => {
  world = await startChatWorld({ prefix: 'chatinb', business: '+447911123452' });
  await customerWrites(world, CUSTOMER, { text: 'start' });
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

/** A Cloud API inbound webhook body, as the upstream would post it to the gateway. */
function inboundWebhook(business: string, from: string, text: string, id = `wamid.${randomBytes(8).toString('hex')}`) {
  const digits = business.slice(1);
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
              metadata: { display_phone_number: digits, phone_number_id: digits },
              contacts: [{ profile: { name: 'Test' }, wa_id: from.slice(1) }],
              messages: [{ from: from.slice(1), id, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: text } }],
            },
          },
        ],
      },
    ],
  });
}

async function postWebhook(body: string, signature: string) {
  const response = await fetch(`${world.stack.baseUrl}/v1/providers/chat/webhook`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': signature },
    body,
  });
  return response.status;
}

async function inboundTexts(): Promise<string[]> {
  return ((await world.api('GET', '/v1/inbound?limit=100')).body.data as any[]).map((i) => i.text);
}

describe('inbound replies', () => {
  it('links a button reply to the message it answers', async () => {
    const sent = await world.api('POST', '/v1/messages/chat', {
      to: CUSTOMER,
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'Confirm?' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'confirm', title: 'Confirm' } },
            { type: 'reply', reply: { id: 'cancel', title: 'Cancel' } },
          ],
        },
      },
    });
    expect(sent.status).toBe(202);
    await messageUntil(world, sent.body.id, isRead, 'button message read');
    const listed = await customerWrites(world, CUSTOMER, { reply: { id: 'confirm', title: 'Confirm' }, context_message_id: sent.body.id });
    const reply = await world.api('GET', `/v1/inbound/${listed.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      id: expect.stringMatching(/^inb_/),
      channel: 'chat',
      from: CUSTOMER,
      to: world.business,
      type: 'reply',
      reply: { id: 'confirm', title: 'Confirm' },
      context: { message_id: sent.body.id },
    });
    expect(Date.parse(reply.body.received_at)).not.toBeNaN();
  });

  it('links a list reply too', async () => {
    const sent = await world.api('POST', '/v1/messages/chat', {
      to: CUSTOMER,
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: 'Which?' },
        action: {
          button: 'Options',
          sections: [
            {
              rows: [
                { id: 'opt_a', title: 'A', description: 'first' },
                { id: 'opt_b', title: 'B' },
              ],
            },
          ],
        },
      },
    });
    await messageUntil(world, sent.body.id, isRead, 'list message read');
    const listed = await customerWrites(world, CUSTOMER, { reply: { id: 'opt_b', title: 'B' }, context_message_id: sent.body.id });
    expect(listed).toMatchObject({ type: 'reply', reply: { id: 'opt_b', title: 'B' }, context: { message_id: sent.body.id } });
  });

  it('pages newest first and hides other ids', async () => {
    const first = await world.api('GET', '/v1/inbound?limit=1');
    expect(first.body.data).toHaveLength(1);
    expect(typeof first.body.next_cursor).toBe('string');
    const second = await world.api('GET', `/v1/inbound?limit=1&cursor=${first.body.next_cursor}`);
    expect(second.body.data[0].id < first.body.data[0].id).toBe(true);
    expect((await world.api('GET', '/v1/inbound/inb_01JD3Q4W6T9ZK1H8X2C5V7B3NM')).status).toBe(404);
    expect((await world.api('GET', '/v1/inbound/nonsense')).status).toBe(404);
    expect((await world.api('GET', '/v1/inbound?limit=0')).status).toBe(400);
  });

  it('stores a signed webhook once, however often it is delivered', async () => {
    const body = inboundWebhook(world.business, CUSTOMER, 'delivered twice');
    expect(await postWebhook(body, hubSignature(body))).toBe(200);
    expect(await postWebhook(body, hubSignature(body))).toBe(200);
    await eventually(inboundTexts, (texts) => texts.includes('delivered twice'), { what: 'signed inbound' });
    // A later inbound proves both copies were processed before it is counted.
    const marker = inboundWebhook(world.business, CUSTOMER, 'after the copies');
    expect(await postWebhook(marker, hubSignature(marker))).toBe(200);
    await eventually(inboundTexts, (texts) => texts.includes('after the copies'), { what: 'marker inbound' });
    expect((await inboundTexts()).filter((t) => t === 'delivered twice')).toHaveLength(1);
  });

  it('rejects a forged X-Hub-Signature-256 and stores nothing', async () => {
    const body = inboundWebhook(world.business, CUSTOMER, 'forged message');
    expect(await postWebhook(body, hubSignature(body, 'not-the-app-secret'))).toBe(401);
    expect(await postWebhook(body, 'sha256=00')).toBe(401);
    const marker = inboundWebhook(world.business, CUSTOMER, 'genuine after forgery');
    expect(await postWebhook(marker, hubSignature(marker))).toBe(200);
    await eventually(inboundTexts, (texts) => texts.includes('genuine after forgery'), { what: 'genuine inbound' });
    expect(await inboundTexts()).not.toContain('forged message');
  });

  it('answers the hub.challenge handshake', async () => {
    const res = await fetch(
      `${world.stack.baseUrl}/v1/providers/chat/webhook?hub.mode=subscribe&hub.verify_token=sandbox-verify-token&hub.challenge=1158201444`,
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('1158201444');
  });
});
