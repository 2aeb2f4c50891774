import { createAccountKey, eventually } from '@switchboard/devstack';
import { reached, startMessagingStack, type MessagingStack } from './messaging-helpers';

// Opt-out through the real stack (docs/routing.md#opt-out): the customer writes STOP by SMS to the
// account's number through the simulator's SMSC, the dispatcher suppresses them and confirms, the
// gateway refuses the next send, START lifts it.
let m: MessagingStack;
const BUSINESS = '+447911123510';
const CUSTOMER = '+447911123588';
let other: { key: string };

beforeAll(async () => {
  m = await startMessagingStack();
  // The account of startMessagingStack's key; provisioning a number for it gives its inbound an owner.
  await createAccountKey(m.stack.envFor('gateway').DATABASE_URL, {
    account: 'messaging-e2e',
    mode: 'test',
    numbers: [{ e164: BUSINESS, channels: ['sms', 'chat', 'rcs'] }],
  });
  other = await createAccountKey(m.stack.envFor('gateway').DATABASE_URL, { account: 'optout-other', mode: 'test' });
}, 90_000);

afterAll(async () => {
  await m?.stop();
});

async function otherApi(method: string, path: string, body?: unknown) {
  const res = await fetch(`${m.stack.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${other.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const listFor = async (recipient: string) => (await m.api<any>('GET', `/v1/suppressions?channel=sms&recipient=${encodeURIComponent(recipient)}`)).body;

describe('STOP and START', () => {
  it('refuses sends after STOP, confirms both keywords, and accepts again after START', async () => {
    const before = await m.send({ channel: 'sms', recipient: CUSTOMER, from: BUSINESS, content: { text: 'Your order shipped' } });
    await m.waitForMessage(before.id, reached('delivered'), 'delivered before STOP');

    await m.simInbound({ channel: 'sms', from: CUSTOMER, to: BUSINESS, text: '  stop ' });
    const listed = await eventually(
      () => listFor(CUSTOMER),
      (page: any) => page?.data?.length === 1,
      { what: 'suppression after STOP', timeoutMs: 20_000 },
    );
    expect(listed.data[0]).toMatchObject({ recipient: CUSTOMER, channel: 'sms', source: 'inbound', id: expect.stringMatching(/^sup_/) });

    // The confirmation went out from the number the customer wrote to, although the customer is now suppressed.
    const confirmations = await eventually(
      () => m.simSends({ channel: 'sms', to: CUSTOMER }),
      (sends) => sends.some((s) => s.text?.includes('unsubscribed')),
      { what: 'STOP confirmation at the simulator', timeoutMs: 20_000 },
    );
    expect(confirmations.filter((s) => s.text?.includes('unsubscribed'))).toHaveLength(1);

    const refused = await eventually(
      () => m.api<any>('POST', '/v1/messages', { channel: 'sms', recipient: CUSTOMER, from: BUSINESS, content: { text: 'Sale!' } }),
      (res) => res.status !== 202,
      { what: 'send refused after STOP' },
    );
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'recipient_opted_out', errors: [{ field: '/recipient' }] });

    // With auto, SMS is skipped and the message goes on RCS.
    const viaAuto = await m.send({ channel: 'auto', fallback: ['sms', 'rcs'], recipient: CUSTOMER, from: BUSINESS, content: { text: 'Hello on RCS' } });
    const carried = await m.waitForMessage(viaAuto.id, reached('delivered', 'read'), 'auto skips sms');
    expect(carried.channel_used).toBe('rcs');
    expect(carried.attempts[0]).toMatchObject({ channel: 'sms', error_code: 'recipient_opted_out' });
    const onlySms = await m.api<any>('POST', '/v1/messages', {
      channel: 'auto',
      fallback: ['sms'],
      recipient: CUSTOMER,
      from: BUSINESS,
      content: { text: 'x' },
    });
    expect(onlySms.status).toBe(422);
    expect(onlySms.body.code).toBe('recipient_opted_out');

    await m.simInbound({ channel: 'sms', from: CUSTOMER, to: BUSINESS, text: 'START' });
    await eventually(
      () => listFor(CUSTOMER),
      (page: any) => page?.data?.length === 0,
      { what: 'suppression lifted after START', timeoutMs: 20_000 },
    );
    await eventually(
      () => m.simSends({ channel: 'sms', to: CUSTOMER }),
      (sends) => sends.some((s) => s.text?.includes('re-subscribed')),
      { what: 'START confirmation at the simulator', timeoutMs: 20_000 },
    );
    const accepted = await eventually(
      () => m.api<any>('POST', '/v1/messages', { channel: 'sms', recipient: CUSTOMER, from: BUSINESS, content: { text: 'Welcome back' } }),
      (res) => res.status === 202,
      { what: 'send accepted after START' },
    );
    await m.waitForMessage(accepted.body.id, reached('delivered'), 'delivered after START');
  }, 120_000);
});

describe('STOP on chat', () => {
  const CHAT_CUSTOMER = '+447911123566';

  it('suppresses the customer on chat only, and confirms on chat', async () => {
    await m.simInbound({ channel: 'chat', from: CHAT_CUSTOMER, to: BUSINESS, text: 'Unsubscribe' });
    await eventually(
      async () => (await m.api<any>('GET', `/v1/suppressions?recipient=${encodeURIComponent(CHAT_CUSTOMER)}`)).body,
      (page: any) => page?.data?.length === 1 && page.data[0].channel === 'chat',
      { what: 'chat suppression', timeoutMs: 20_000 },
    );
    await eventually(
      () => m.simSends({ channel: 'chat', to: CHAT_CUSTOMER }),
      (sends) => sends.some((s) => s.text?.includes('unsubscribed')),
      { what: 'chat confirmation at the simulator', timeoutMs: 20_000 },
    );
    const refused = await m.api<any>('POST', '/v1/messages', { channel: 'chat', recipient: CHAT_CUSTOMER, from: BUSINESS, content: { text: 'Hi' } });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('recipient_opted_out');
    // SMS to the same customer is not affected.
    const sms = await m.send({ channel: 'sms', recipient: CHAT_CUSTOMER, from: BUSINESS, content: { text: 'Order update' } });
    await m.waitForMessage(sms.id, reached('delivered'), 'sms still delivered');
  }, 60_000);
});

describe('/v1/suppressions', () => {
  const RECIPIENT = '+447911123577';

  it('creates, lists and deletes entries, and no other account sees them', async () => {
    const created = await m.api<any>('POST', '/v1/suppressions', { recipient: RECIPIENT, channel: 'sms' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.stringMatching(/^sup_/), recipient: RECIPIENT, channel: 'sms', source: 'api' });
    const again = await m.api<any>('POST', '/v1/suppressions', { recipient: RECIPIENT, channel: 'sms' });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(created.body.id);

    const refused = await m.api<any>('POST', '/v1/messages', { channel: 'sms', recipient: RECIPIENT, content: { text: 'hi' } });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('recipient_opted_out');
    // Another account may still send to the same person.
    expect((await otherApi('POST', '/v1/messages', { channel: 'sms', recipient: RECIPIENT, content: { text: 'hi' } })).status).toBe(202);

    const listed = await m.api<any>('GET', '/v1/suppressions?channel=sms');
    expect(listed.body.data.map((s: any) => s.id)).toContain(created.body.id);
    const theirs = await otherApi('GET', '/v1/suppressions');
    expect(theirs.body).toEqual({ data: [], next_cursor: null });
    expect((await otherApi('DELETE', `/v1/suppressions/${created.body.id}`)).status).toBe(404);

    expect((await m.api('DELETE', `/v1/suppressions/${created.body.id}`)).status).toBe(204);
    expect((await m.api('DELETE', `/v1/suppressions/${created.body.id}`)).status).toBe(404);
    expect((await m.api('POST', '/v1/messages', { channel: 'sms', recipient: RECIPIENT, content: { text: 'hi' } })).status).toBe(202);
  });

  it('names the field of a malformed request', async () => {
    const bad = await m.api<any>('POST', '/v1/suppressions', { recipient: '12', channel: 'fax' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.field).sort()).toEqual(['/channel', '/recipient']);
    const badQuery = await m.api<any>('GET', '/v1/suppressions?channel=fax');
    expect(badQuery.status).toBe(400);
    expect(badQuery.body.errors[0].field).toBe('query:channel');
  });
});
