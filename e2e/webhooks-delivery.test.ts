import { randomBytes } from 'node:crypto';
import { eventually, type ServiceProcess } from '@switchboard/devstack';
import { createAccountsRepository, createWebhookDeliveriesRepository, createWebhookEndpointsRepository, type Db } from '@switchboard/store';
import { sentAndDeliveredMessage } from '../services/webhook-delivery/test/support/message-events';
import { ReceiverProcess, startWebhookStack, verify, type WebhookStack } from './webhooks-harness';

// Deliveries, crash recovery and the outbox, with real processes: the stack (webhook-delivery among them) and a receiver.
describe('webhook delivery (real processes)', () => {
  const prefix = `sbwh${randomBytes(4).toString('hex')}`;
  let h: WebhookStack;
  let db: Db;
  let worker: ServiceProcess;
  const receiver = new ReceiverProcess();
  let publish: WebhookStack['publish'];

  beforeAll(async () => {
    await receiver.start();
    // A longer schedule than the default test one, so a receiver that is down for a while is waited for.
    h = await startWebhookStack({ prefix, env: { WEBHOOK_RETRY_SCHEDULE_MS: '0,300,600,1000,1500,2000,3000,3000' } });
    ({ db, publish } = h);
    worker = h.stack.services['webhook-delivery'] as ServiceProcess;
  });
  afterAll(async () => {
    await h?.stop();
    await receiver.kill();
  });

  async function accountWithEndpoint(name: string, path: string, events: string[] = ['*']) {
    const account = await createAccountsRepository(db, h.secrets).ensure(`${name}-${prefix}`);
    const endpoint = await createWebhookEndpointsRepository(db, h.secrets).create({ accountId: account.id, url: receiver.url(path), events, at: new Date() });
    return { account, endpoint };
  }

  it('signs every delivery so that standardwebhooks verifies it, for endpoints and for callback_url', async () => {
    const { account, endpoint } = await accountWithEndpoint('signed', '/signed/endpoint');
    const { messageId, events } = await sentAndDeliveredMessage(db, account.id, receiver.url('/signed/callback'));
    await publish.publisher.publish(events);

    const both = await eventually(
      async () => [receiver.received('/signed/endpoint'), receiver.received('/signed/callback')],
      ([e, c]) => e.length === 2 && c.length === 2,
      { what: 'two deliveries to each target' },
    );
    const [toEndpoint, toCallback] = both;
    for (const d of toEndpoint) expect(verify(endpoint.secret, d).data).toMatchObject({ id: messageId, sequence: expect.any(Number) });
    for (const d of toCallback) expect(verify(account.callback_secret, d).data.id).toBe(messageId);
    expect(new Set(toEndpoint.map((d) => verify(endpoint.secret, d).type))).toEqual(new Set(['message.sent', 'message.delivered']));
    for (const d of [...toEndpoint, ...toCallback]) expect(d.headers['webhook-id']).toBe(JSON.parse(d.body).id);

    const d = toEndpoint[0];
    expect(() => verify(endpoint.secret, { ...d, body: d.body.replace('"sms"', '"rcs"') })).toThrow();
    expect(() => verify(account.callback_secret, d)).toThrow();
  });

  it('gets every event to a receiver that was down and came back, with one webhook-id per event and nothing delivered before a 2xx', async () => {
    const { account, endpoint } = await accountWithEndpoint('down', '/down');
    const deliveries = createWebhookDeliveriesRepository(db, h.secrets);
    await receiver.kill();
    const produced = [];
    for (let i = 0; i < 5; i++) produced.push(...(await sentAndDeliveredMessage(db, account.id)).events);
    await publish.publisher.publish(produced);

    // Every delivery has failed at least twice against the dead receiver and none counts as delivered.
    const whileDown = await eventually(
      async () => Promise.all(produced.map(async (e) => (await deliveries.forEvent(e.id))[0])),
      (rows) => rows.every((r) => r && r.attempt_count >= 2),
      { what: 'failed attempts while the receiver is down' },
    );
    expect(whileDown.every((r) => r.status === 'pending' && r.delivered_at === null)).toBe(true);
    expect(whileDown.every((r) => r.last_error?.startsWith('network_error'))).toBe(true);

    await receiver.start();
    await eventually(
      async () => Promise.all(produced.map(async (e) => (await deliveries.forEvent(e.id))[0].status)),
      (statuses) => statuses.every((s) => s === 'delivered'),
      { what: 'every delivery delivered after the receiver came back' },
    );
    const got = receiver.received('/down');
    expect(new Set(got.map((d) => d.headers['webhook-id']))).toEqual(new Set(produced.map((e) => e.id)));
    for (const d of got) expect(verify(endpoint.secret, d).id).toBe(d.headers['webhook-id']);
    const attempts = await deliveries.attemptsForDelivery((await deliveries.forEvent(produced[0].id))[0].id);
    expect(attempts[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/^network_error/) });
    expect(attempts[attempts.length - 1]).toMatchObject({ status_code: 200, error: null });
  });

  it('loses no event when webhook-delivery is SIGKILLed mid-run, nor when an event was committed but never published', async () => {
    const { account } = await accountWithEndpoint('crash', '/crash');
    await receiver.behave('/crash', { status: 200, delayMs: 150 });
    const produced = [];
    for (let i = 0; i < 15; i++) produced.push(...(await sentAndDeliveredMessage(db, account.id)).events);
    await publish.publisher.publish(produced);
    await eventually(
      async () => receiver.received('/crash').length,
      (n) => n >= 3,
      { what: 'some deliveries before the crash' },
    );
    await worker.kill('SIGKILL');

    // Committed while no webhook-delivery runs, and the producer "crashed" before publishing them.
    const unpublished = (await sentAndDeliveredMessage(db, account.id)).events;
    worker = await h.stack.startService('webhook-delivery');

    const expected = [...produced, ...unpublished].map((e) => e.id);
    await eventually(
      async () =>
        new Set(
          receiver
            .received('/crash')
            .filter((d) => d.status === 200)
            .map((d) => d.headers['webhook-id']),
        ),
      (ids) => expected.every((id) => ids.has(id)),
      { what: 'every event delivered after the crash', timeoutMs: 60_000 },
    );
  });
});
