import { eventually } from '@switchboard/devstack';
import { startMessagingStack, type MessagingStack } from './messaging-helpers';

// Traffic lanes and fair turns on the real stack (docs/messages.md#traffic-lanes): a bulk backlog of
// 10,000 never holds up transactional sends, and two campaigns of different sizes end in order of size.
// Orders are compared, never durations: which message was delivered while which backlog still waited.
let m: MessagingStack;

beforeAll(async () => {
  m = await startMessagingStack();
}, 90_000);

afterAll(async () => {
  await m?.stop();
});

async function call(key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${m.stack.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** The k-th recipient whose last two digits (10…99) the simulator simply delivers (docs/sandbox.md#sandbox-numbers). */
const deliverable = (k: number) => `+1415${String(50_000 + Math.floor(k / 90)).padStart(5, '0')}${10 + (k % 90)}`;

/** A campaign of `size` SMS in batches of 1,000; answers its batch ids. */
async function campaign(key: string, size: number, tag: string): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < size; start += 1_000) {
    const count = Math.min(1_000, size - start);
    const messages = Array.from({ length: count }, (_, i) => ({ recipient: deliverable(start + i), content: { text: `${tag} ${start + i}` } }));
    const res = await call(key, 'POST', '/v1/messages/batch', { channel: 'sms', messages });
    expect(res.status).toBe(202);
    expect(res.body.accepted).toBe(count);
    ids.push(res.body.batch_id);
  }
  return ids;
}

/** Messages of the batches not yet delivered. */
async function undelivered(key: string, batchIds: string[]): Promise<number> {
  let left = 0;
  for (const id of batchIds) {
    const batch = await call(key, 'GET', `/v1/batches/${id}`);
    left += batch.body.accepted - (batch.body.counts.delivered ?? 0);
  }
  return left;
}

describe('traffic lanes', () => {
  it('refuses a transactional batch, naming the field, and shows each message its lane', async () => {
    const refused = await call(m.key, 'POST', '/v1/messages/batch', {
      channel: 'sms',
      traffic_class: 'transactional',
      messages: [{ recipient: '+14155550111', content: { text: 'x' } }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((e: any) => e.field)).toEqual(['/traffic_class']);
    const bad = await call(m.key, 'POST', '/v1/messages', { channel: 'sms', recipient: '+14155550111', content: { text: 'x' }, traffic_class: 'urgent' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.field)).toEqual(['/traffic_class']);

    const single = await m.send({ channel: 'sms', recipient: '+14155550112', content: { text: 'otp 1234' } });
    const bulkSingle = await m.send({ channel: 'sms', recipient: '+14155550113', content: { text: 'news' }, traffic_class: 'bulk' });
    const [batchId] = await campaign(m.key, 2, 'lane');
    expect((await m.message(single.id)) as any).toMatchObject({ traffic_class: 'transactional' });
    expect((await m.message(bulkSingle.id)) as any).toMatchObject({ traffic_class: 'bulk' });
    await eventually(
      () => undelivered(m.key, [batchId]),
      (n) => n === 0,
      { what: 'the two-message batch delivered', timeoutMs: 60_000 },
    );
    await m.waitForMessage(single.id, (v) => v.status === 'delivered', 'delivered');
    await m.waitForMessage(bulkSingle.id, (v) => v.status === 'delivered', 'delivered');
    // Stored rows keep the lane, and the list filters on it.
    expect((await m.message(bulkSingle.id)) as any).toMatchObject({ traffic_class: 'bulk' });
    const bulkOnly = await m.api<any>('GET', '/v1/messages?traffic_class=bulk&limit=100');
    expect(bulkOnly.body.data.map((x: any) => x.traffic_class)).toEqual(['bulk', 'bulk', 'bulk']);
    const txOnly = await m.api<any>('GET', '/v1/messages?traffic_class=transactional&limit=100');
    expect(txOnly.body.data.map((x: any) => x.id)).toEqual([single.id]);
    expect((await m.api<any>('GET', '/v1/messages?traffic_class=promotional')).status).toBe(400);
  }, 120_000);

  it('delivers transactional sends of another account while a 10,000-message bulk backlog waits', async () => {
    const campaignKey = await m.keyOf('lanes-campaign');
    const otpKey = await m.keyOf('lanes-otp');
    const batches = await campaign(campaignKey, 10_000, 'promo');
    const otps: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      const res = await call(otpKey, 'POST', '/v1/messages', { channel: 'sms', recipient: `+1415666${String(1010 + i)}`, content: { text: `code ${i}` } });
      expect(res.status).toBe(202);
      otps.push(res.body.id);
      await new Promise((r) => setTimeout(r, 250));
    }
    for (const id of otps) {
      await eventually(
        () => call(otpKey, 'GET', `/v1/messages/${id}`),
        (r) => r.body.status === 'delivered',
        { what: `${id} delivered`, timeoutMs: 120_000, intervalMs: 100 },
      );
    }
    // Every one-time password is through while most of the campaign still waits: they did not queue behind it.
    expect(await undelivered(campaignKey, batches)).toBeGreaterThan(2_000);
  }, 300_000);

  it('finishes two accounts’ campaigns in order of size, the smaller one started later', async () => {
    const bigKey = await m.keyOf('lanes-big');
    const smallKey = await m.keyOf('lanes-small');
    const big = await campaign(bigKey, 3_000, 'big');
    const small = await campaign(smallKey, 300, 'small');
    await eventually(
      () => undelivered(smallKey, small),
      (n) => n === 0,
      { what: 'the small campaign delivered', timeoutMs: 240_000, intervalMs: 200 },
    );
    expect(await undelivered(bigKey, big)).toBeGreaterThan(1_000);
  }, 300_000);
});
