import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { customerWindowCacheKey } from '@switchboard/shared-state';
import { customerWrites, isFinal, isRead, messageUntil, startChatWorld, type ChatWorld } from './support/chat-e2e';

let world: ChatWorld;
const CUSTOMER = '+447911123410';
const SILENT_CUSTOMER = '+447911123411';

// Starting the whole stack can take longer than jest's default 5 s hook timeout on a busy machine.
beforeAll(async () => {
  world = await startChatWorld({ prefix: 'chattypes', business: '+447911123450' });
  await customerWrites(world, CUSTOMER, { text: 'hi there' });
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

const media = (world: ChatWorld, mime: string, bytes: number) => `${world.stack.simUrl}/sim/media/file?type=${encodeURIComponent(mime)}&bytes=${bytes}`;

const payloads = (w: ChatWorld): Array<[string, Record<string, unknown>]> => [
  ['text', { type: 'text', text: { body: 'Your order has shipped', preview_url: false } }],
  [
    'interactive button',
    {
      type: 'interactive',
      interactive: {
        type: 'button',
        header: { type: 'text', text: 'Delivery' },
        body: { text: 'Is tomorrow fine?' },
        footer: { text: 'Reply with a button' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'yes', title: 'Yes' } },
            { type: 'reply', reply: { id: 'no', title: 'No' } },
          ],
        },
      },
    },
  ],
  [
    'interactive list',
    {
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: 'Pick a slot' },
        action: {
          button: 'Slots',
          sections: [
            { title: 'Morning', rows: [{ id: 'm1', title: '9:00', description: 'Early' }] },
            { title: 'Afternoon', rows: [{ id: 'a1', title: '14:00' }] },
          ],
        },
      },
    },
  ],
  ['image', { type: 'image', image: { link: media(w, 'image/png', 2048), caption: 'Your receipt' } }],
  ['document', { type: 'document', document: { link: media(w, 'application/pdf', 4096), filename: 'invoice.pdf', caption: 'Invoice' } }],
  ['audio', { type: 'audio', audio: { link: media(w, 'audio/ogg; codecs=opus', 1024) } }],
  ['location', { type: 'location', location: { latitude: 51.5007, longitude: -0.1246, name: 'Big Ben', address: 'London SW1A 0AA' } }],
];

describe('POST /v1/messages/chat, every type through the simulator', () => {
  it.each(['text', 'interactive button', 'interactive list', 'image', 'document', 'audio', 'location'])('%s reaches read', async (name) => {
    const payload = payloads(world).find(([n]) => n === name)![1];
    const sent = await world.api('POST', '/v1/messages/chat', { to: CUSTOMER, ...payload, metadata: { case: name } });
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ status: 'queued', channel: 'chat', recipient: CUSTOMER });
    expect(sent.headers.get('location')).toBe(`/v1/messages/${sent.body.id}`);
    const done = await messageUntil(world, sent.body.id, isFinal, `${name} to finish`);
    expect(done).toMatchObject({ status: 'read', channel_used: 'chat', error: null, metadata: { case: name } });
  });

  it('accepts the same payloads as content on POST /v1/messages', async () => {
    for (const channel of ['chat', 'auto']) {
      const sent = await world.api('POST', '/v1/messages', { channel, recipient: CUSTOMER, content: payloads(world)[1][1] });
      expect(sent.status).toBe(202);
      expect((await messageUntil(world, sent.body.id, isFinal, `${channel} content`)).status).toBe('read');
    }
    const invalid = await world.api('POST', '/v1/messages', {
      channel: 'chat',
      recipient: CUSTOMER,
      content: {
        type: 'interactive',
        interactive: {
          type: 'button',
          body: { text: 'x' },
          action: { buttons: [1, 2, 3, 4].map((i) => ({ type: 'reply', reply: { id: `b${i}`, title: `B${i}` } })) },
        },
      },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toEqual([expect.objectContaining({ field: '/content/interactive/action/buttons/3' })]);
  });

  it('answers a limit violation with 400 and the JSON Pointer of the field', async () => {
    const buttons = [1, 2, 3, 4].map((i) => ({ type: 'reply', reply: { id: `b${i}`, title: `B${i}` } }));
    const res = await world.api('POST', '/v1/messages/chat', {
      to: CUSTOMER,
      type: 'interactive',
      interactive: { type: 'button', body: { text: 'x' }, action: { buttons } },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', errors: [{ field: '/interactive/action/buttons/3' }] });
  });

  it('replays an Idempotency-Key and refuses it with another body', async () => {
    const key = randomUUID();
    const body = { to: CUSTOMER, type: 'text', text: { body: 'once' } };
    const first = await world.api('POST', '/v1/messages/chat', body, { 'Idempotency-Key': key });
    const again = await world.api('POST', '/v1/messages/chat', body, { 'Idempotency-Key': key });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await world.api('POST', '/v1/messages/chat', { ...body, text: { body: 'twice' } }, { 'Idempotency-Key': key });
    expect(other).toMatchObject({ status: 422, body: { code: 'idempotency_key_reused' } });
  });

  it('fails a media message whose link serves a type not allowed, with a clear code', async () => {
    const sent = await world.api('POST', '/v1/messages/chat', { to: CUSTOMER, type: 'image', image: { link: media(world, 'image/gif', 100) } });
    expect(sent.status).toBe(202);
    const done = await messageUntil(world, sent.body.id, isFinal, 'gif to fail');
    expect(done).toMatchObject({ status: 'failed', error: { code: 'media_type_not_allowed' } });
    const big = await world.api('POST', '/v1/messages/chat', { to: CUSTOMER, type: 'image', image: { link: media(world, 'image/jpeg', 5 * 1024 * 1024 + 1) } });
    expect((await messageUntil(world, big.body.id, isFinal, 'big image to fail')).error).toMatchObject({ code: 'media_too_large' });
  });
});

describe('the 24-hour customer service window', () => {
  it('refuses free-form chat to a customer who has not written, and queues nothing', async () => {
    const res = await world.api('POST', '/v1/messages/chat', { to: SILENT_CUSTOMER, type: 'text', text: { body: 'hello?' } });
    // Each route names the field in its own body.
    expect(res).toMatchObject({ status: 422, body: { code: 'outside_customer_service_window', errors: [expect.objectContaining({ field: '/type' })] } });
    const viaMessages = await world.api('POST', '/v1/messages', { channel: 'chat', recipient: SILENT_CUSTOMER, content: { text: 'hello?' } });
    expect(viaMessages).toMatchObject({
      status: 422,
      body: { code: 'outside_customer_service_window', errors: [expect.objectContaining({ field: '/content' })] },
    });
    const listed = await world.api('GET', `/v1/messages?recipient=${encodeURIComponent(SILENT_CUSTOMER)}`);
    expect(listed.body.data).toEqual([]);
  });

  it('with auto, skips chat for a closed window instead of refusing', async () => {
    const res = await world.api('POST', '/v1/messages', { channel: 'auto', recipient: SILENT_CUSTOMER, content: { text: 'via another channel' } });
    expect(res.status).toBe(202);
    const done = await messageUntil(
      world,
      res.body.id,
      (m) => m?.channel_used && m.channel_used !== 'chat' && ['delivered', 'read'].includes(m.status),
      'auto without chat',
    );
    // The skipped channel is recorded as a switch (docs/messages.md#auto-fallback), and chat's upstream was never called.
    expect(done.attempts[0]).toMatchObject({ channel: 'chat', status: 'failed', error_code: 'outside_customer_service_window' });
    const fallbacks = await world.api('GET', `/v1/events?resource_id=${res.body.id}&type=message.fallback`);
    expect(fallbacks.body.data.length).toBeGreaterThanOrEqual(1);
  });

  it('opens when the customer writes, and a free-form message then goes through', async () => {
    const customer = '+447911123412';
    expect((await world.api('POST', '/v1/messages/chat', { to: customer, type: 'text', text: { body: 'before' } })).status).toBe(422);
    await customerWrites(world, customer, { text: 'I have a question' });
    const sent = await world.api('POST', '/v1/messages/chat', { to: customer, type: 'text', text: { body: 'How can we help?' } });
    expect(sent.status).toBe(202);
    expect(await messageUntil(world, sent.body.id, isRead, 'reply to be read')).toMatchObject({ status: 'read' });
  });

  it('maps the upstream 131047 to outside_customer_service_window when the windows disagree', async () => {
    // Our window says open, the upstream's says closed: what happens when it closes between check and send.
    const customer = '+447911123413';
    const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
    try {
      await redis.set(customerWindowCacheKey(world.stack.prefix, { accountId: world.accountId, sender: world.business, customer }), 'x', 'PX', 60_000);
    } finally {
      redis.disconnect();
    }
    const sent = await world.api('POST', '/v1/messages/chat', { to: customer, type: 'text', text: { body: 'late' } });
    expect(sent.status).toBe(202);
    expect(await messageUntil(world, sent.body.id, isFinal, '131047 failure')).toMatchObject({
      status: 'failed',
      error: { code: 'outside_customer_service_window' },
    });
  });
});
