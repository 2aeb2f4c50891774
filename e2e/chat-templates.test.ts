import { eventually } from '@switchboard/devstack';
import { isRead, messageUntil, startChatWorld, type ChatWorld } from './support/chat-e2e';

let world: ChatWorld;
/** Nobody has written from this number, so only templates may reach it. */
const CUSTOMER = '+447911123420';

// Starting the whole stack can take longer than jest's default 5 s hook timeout on a busy machine.
beforeAll(async () => {
  world = await startChatWorld({ prefix: 'chattpl', business: '+447911123451' });
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

async function createApproved(name: string, body: string) {
  const created = await world.api('POST', '/v1/templates', { name, language: 'en_US', category: 'utility', components: [{ type: 'body', text: body }] });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ name, language: 'en_US', category: 'utility', status: 'pending' });
  expect(created.headers.get('location')).toBe(`/v1/templates/${created.body.id}`);
  return eventually(
    async () => (await world.api('GET', `/v1/templates/${created.body.id}`)).body,
    (t: any) => t?.status !== 'pending',
    { what: `${name} review` },
  );
}

const a = (name: string, texts: string[]) => ({ name, language: 'en_US', parameters: texts.map((text) => ({ type: 'text', text })) });
const b = (name: string, texts: string[]) => ({
  name,
  language: 'en_US',
  components: [{ type: 'body', parameters: texts.map((text) => ({ type: 'text', text })) }],
});

describe('templates', () => {
  it('are approved by the upstream and sent in both shapes on both routes, outside the window', async () => {
    expect(await createApproved('order_shipped', 'Hi {{1}}, order {{2}} has shipped.')).toMatchObject({ status: 'approved', rejection_reason: null });
    const sends = [
      world.api('POST', '/v1/messages/chat', { to: CUSTOMER, type: 'template', template: a('order_shipped', ['Ada', '42']) }),
      world.api('POST', '/v1/messages/chat', { to: CUSTOMER, type: 'template', template: b('order_shipped', ['Ada', '43']) }),
      world.api('POST', '/v1/messages', { channel: 'chat', recipient: CUSTOMER, template: a('order_shipped', ['Ada', '44']) }),
      world.api('POST', '/v1/messages', { channel: 'chat', recipient: CUSTOMER, template: b('order_shipped', ['Ada', '45']) }),
      world.api('POST', '/v1/messages', { channel: 'chat', recipient: CUSTOMER, content: { type: 'template', template: a('order_shipped', ['Ada', '46']) } }),
    ];
    for (const sent of await Promise.all(sends)) {
      expect(sent.status).toBe(202);
      expect(sent.body.channel).toBe('chat');
      expect(await messageUntil(world, sent.body.id, isRead, 'template read')).toMatchObject({ status: 'read', channel_used: 'chat' });
    }
    const upstream = await world.sim('GET', `/sim/sends?channel=chat&to=${encodeURIComponent(CUSTOMER)}`);
    // The simulator fills the approved body with the parameters it received, so both shapes reached it intact.
    const texts = (upstream.body.data as Array<{ type: string; text: string }>).filter((x) => x.type === 'template').map((x) => x.text);
    expect(texts.sort()).toEqual(['42', '43', '44', '45', '46'].map((n) => `Hi Ada, order ${n} has shipped.`));
  });

  it('refuses a parameter count that does not match the placeholders, in both shapes', async () => {
    await createApproved('two_params', 'Hi {{1}}, {{2}}.');
    const tooFew = await world.api('POST', '/v1/messages/chat', { to: CUSTOMER, type: 'template', template: a('two_params', ['only one']) });
    expect(tooFew).toMatchObject({ status: 422, body: { code: 'template_parameter_mismatch', errors: [{ field: '/template/parameters' }] } });
    const tooMany = await world.api('POST', '/v1/messages', { channel: 'chat', recipient: CUSTOMER, template: b('two_params', ['1', '2', '3']) });
    expect(tooMany).toMatchObject({ status: 422, body: { code: 'template_parameter_mismatch', errors: [{ field: '/template/components' }] } });
  });

  it('refuses unknown and unapproved templates', async () => {
    const unknown = await world.api('POST', '/v1/messages/chat', { to: CUSTOMER, type: 'template', template: a('no_such_template', []) });
    expect(unknown).toMatchObject({ status: 422, body: { code: 'template_not_found' } });
    expect(await createApproved('reject_me', 'Nope {{1}}')).toMatchObject({ status: 'rejected' });
    const rejected = await world.api('POST', '/v1/messages/chat', { to: CUSTOMER, type: 'template', template: a('reject_me', ['x']) });
    expect(rejected).toMatchObject({ status: 422, body: { code: 'template_not_approved' } });
  });

  it('validates definitions and offers list, get and delete', async () => {
    const gap = await world.api('POST', '/v1/templates', {
      name: 'gappy',
      language: 'en',
      category: 'marketing',
      components: [{ type: 'body', text: 'Hi {{1}} {{3}}' }],
    });
    expect(gap).toMatchObject({ status: 400, body: { errors: [{ field: '/components/0/text' }] } });
    const badName = await world.api('POST', '/v1/templates', {
      name: 'Bad Name',
      language: 'en',
      category: 'utility',
      components: [{ type: 'body', text: 'x' }],
    });
    expect(badName).toMatchObject({ status: 400, body: { errors: [{ field: '/name' }] } });

    const created = await world.api('POST', '/v1/templates', {
      name: 'to_delete',
      language: 'en',
      category: 'authentication',
      components: [{ type: 'body', text: 'Code {{1}}' }],
    });
    const again = await world.api('POST', '/v1/templates', {
      name: 'to_delete',
      language: 'en',
      category: 'authentication',
      components: [{ type: 'body', text: 'Code {{1}}' }],
    });
    expect(again.status).toBe(409);
    const page = await world.api('GET', '/v1/templates?limit=2');
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(2);
    expect(page.body.data[0].id).toBe(created.body.id);
    expect(typeof page.body.next_cursor).toBe('string');
    const next = await world.api('GET', `/v1/templates?limit=100&cursor=${page.body.next_cursor}`);
    expect(next.body.data.map((t: any) => t.id)).not.toContain(created.body.id);
    expect((await world.api('DELETE', `/v1/templates/${created.body.id}`)).status).toBe(204);
    expect((await world.api('GET', `/v1/templates/${created.body.id}`)).status).toBe(404);
    expect((await world.api('DELETE', `/v1/templates/${created.body.id}`)).status).toBe(404);
    expect((await world.api('GET', '/v1/templates/tpl_nonsense')).status).toBe(404);
  });

  it('renders a template from its stored body when auto falls back to SMS', async () => {
    await createApproved('pickup_ready', 'Hello {{1}}, your parcel is at {{2}}.');
    // 01: not a chat user, so chat is skipped by the upstream and rcs/sms carry the text.
    const customer = '+447911123401';
    const sent = await world.api('POST', '/v1/messages', {
      channel: 'auto',
      fallback: ['chat', 'sms'],
      recipient: customer,
      template: a('pickup_ready', ['Ada', 'the depot']),
    });
    expect(sent.status).toBe(202);
    const done = await messageUntil(world, sent.body.id, (m) => m?.channel_used === 'sms' && ['delivered', 'read'].includes(m.status), 'sms fallback');
    expect(done.channel_used).toBe('sms');
    const sms = await world.sim('GET', `/sim/sends?channel=sms&to=${encodeURIComponent(customer)}`);
    expect(JSON.stringify(sms.body)).toContain('Hello Ada, your parcel is at the depot.');
  });
});
