import type { Job, JobsOptions } from 'bullmq';
import { createTestDatabase, testSecretCipher, type TestDatabase } from '@switchboard/devstack';
import { createEventPublisher, type DeliverWebhookJob, type FanOutEventJob } from '@switchboard/queues';
import {
  createAccountsRepository,
  createDb,
  createEventsRepository,
  createWebhookDeliveriesRepository,
  createWebhookEndpointsRepository,
  signingSecrets,
  type Db,
} from '@switchboard/store';
import { createBatchedStore } from '../src/batched-store';
import { createFanOutEventProcessor } from '../src/processors/fan-out-event.processor';
import { sentAndDeliveredMessage } from './support/message-events';

describe('webhook repositories, publisher and fan-out (PostgreSQL)', () => {
  let database: TestDatabase;
  let db: Db;
  let accountId: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb({ url: database.url, poolSize: 4 });
    accountId = (await createAccountsRepository(db, testSecretCipher(database.url)).ensure('webhooks-int')).id;
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  it('stores endpoints, finds subscribers by type or *, and keeps the old secret signing after a rotation', async () => {
    const endpoints = createWebhookEndpointsRepository(db, testSecretCipher(database.url));
    const all = await endpoints.create({ accountId, url: 'https://a.example.com/h', events: ['*'], at: new Date() });
    const failedOnly = await endpoints.create({ accountId, url: 'https://b.example.com/h', events: ['message.failed'], at: new Date() });
    expect(all.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const sentSubscribers = (await endpoints.subscribedTo(accountId, 'message.sent')).map((e) => e.id);
    expect(sentSubscribers).toContain(all.id);
    expect(sentSubscribers).not.toContain(failedOnly.id);

    const now = new Date();
    const rotated = await endpoints.rotateSecret(accountId, all.id, now, 24 * 3_600_000);
    expect(rotated?.previous_secret).toBe(all.secret);
    expect(signingSecrets(rotated!, now)).toEqual([rotated!.secret, all.secret]);
    expect(signingSecrets(rotated!, new Date(now.getTime() + 24 * 3_600_000 + 1))).toEqual([rotated!.secret]);
    expect(await endpoints.rotateSecret('acc_other', all.id, now, 1)).toBeNull();

    await endpoints.disable(failedOnly.id, 'gone', now);
    expect((await endpoints.subscribedTo(accountId, 'message.failed')).map((e) => e.id)).not.toContain(failedOnly.id);
    expect(await endpoints.delete(accountId, all.id, now)).toBe(true);
    expect(await endpoints.findForAccount(accountId, all.id)).toBeNull();
  });

  it('publishes events once (job id = event id) and marks them; the outbox lists only unpublished ones', async () => {
    // With a callback_url, so its events have a target and are written unpublished (docs/webhooks.md#how-nothing-is-lost).
    const { events } = await sentAndDeliveredMessage(db, accountId, 'https://cb.example.com/outbox');
    expect(events.map((e) => e.type)).toEqual(['message.sent', 'message.delivered']);
    const repo = createEventsRepository(db);
    const future = new Date(Date.now() + 60_000);
    expect((await repo.unpublished(future, 100)).map((e) => e.id)).toEqual(expect.arrayContaining(events.map((e) => e.id)));

    const added: Array<{ name: string; data: FanOutEventJob; opts?: JobsOptions }> = [];
    const publisher = createEventPublisher({ queue: { addBulk: async (jobs) => void added.push(...jobs) }, outbox: repo });
    await publisher.publish(events);
    expect(added.map((j) => [j.name, j.opts?.jobId])).toEqual(events.map((e) => ['fan-out-event', e.id]));
    expect((await repo.unpublished(future, 100)).map((e) => e.id)).not.toEqual(expect.arrayContaining([events[0].id]));
  });

  it('fans an event out to its callback_url and subscribed endpoints idempotently, and redelivery bumps the generation', async () => {
    const endpoints = createWebhookEndpointsRepository(db, testSecretCipher(database.url));
    const deliveries = createWebhookDeliveriesRepository(db, testSecretCipher(database.url));
    const events = createEventsRepository(db);
    const endpoint = await endpoints.create({ accountId, url: 'https://c.example.com/h', events: ['message.delivered'], at: new Date() });
    const { messageId, events: produced } = await sentAndDeliveredMessage(db, accountId, 'https://cb.example.com/status');
    const delivered = produced.find((e) => e.type === 'message.delivered')!;

    const enqueued: Array<{ data: DeliverWebhookJob; opts?: JobsOptions }> = [];
    const deps = {
      events,
      deliveries,
      deliveryQueue: { addBulk: async (jobs: typeof enqueued) => void enqueued.push(...jobs) },
      retryScheduleMs: [0, 1_000],
      clock: () => new Date(),
    };
    const fanOut = createFanOutEventProcessor(deps);
    const batched = createBatchedStore({ events, deliveries, deliveryQueue: deps.deliveryQueue, retryScheduleMs: deps.retryScheduleMs });
    const fanOutBatched = createFanOutEventProcessor({
      ...deps,
      loadPlan: batched.loadPlan,
      createDeliveries: batched.createDeliveries,
      enqueue: batched.enqueueDeliveries,
      markPublished: batched.markPublished,
    });
    const job = { data: { event_id: delivered.id } } as Job;
    // Two fan-outs of one event in the same batch (a redelivery racing the original), then one more alone.
    await Promise.all([fanOutBatched(job), fanOutBatched(job)]);
    await fanOut(job);
    const rows = await deliveries.forEvent(delivered.id);
    expect(rows.map((d) => [d.target_key, d.url]).sort()).toEqual(
      [
        [endpoint.id, 'https://c.example.com/h'],
        ['callback', 'https://cb.example.com/status'],
      ].sort(),
    );
    expect(enqueued.map((j) => j.opts?.jobId).sort()).toEqual([...rows, ...rows, ...rows].map((d) => `${d.id}-g0`).sort());
    expect(enqueued.every((j) => j.opts?.delay === 0 && j.opts?.attempts === 2 + 5)).toBe(true);
    expect((await events.findById(delivered.id))?.published_at).not.toBeNull();

    expect(await deliveries.resetForRedelivery(delivered.id, new Date())).toBe(2);
    expect((await deliveries.forEvent(delivered.id)).map((d) => d.generation)).toEqual([1, 1]);

    const listed = await events.list(accountId, { resourceId: messageId, limit: 10 });
    expect(listed.map((e) => e.type)).toEqual(['message.delivered', 'message.sent']);
    expect(listed[0]).toMatchObject({
      delivery_status: 'pending',
      data: expect.objectContaining({ id: messageId, status: 'delivered', sequence: expect.any(Number) }),
    });
    expect(await events.list(accountId, { type: 'message.read', resourceId: messageId, limit: 10 })).toEqual([]);
    expect(await events.findForAccount('acc_someone_else', delivered.id)).toBeNull();
  });

  it('records attempts and only ends a pending delivery of the same generation', async () => {
    const deliveries = createWebhookDeliveriesRepository(db, testSecretCipher(database.url));
    const { events: produced } = await sentAndDeliveredMessage(db, accountId, 'https://cb.example.com/x');
    await deliveries.createForEvent(
      { id: produced[0].id, account_id: accountId },
      [{ targetKey: 'callback', endpointId: null, url: 'https://cb.example.com/x' }],
      new Date(),
    );
    const [row] = await deliveries.forEvent(produced[0].id);
    const attempt = { deliveryId: row.id, endpointId: null, url: row.url, latencyMs: 12, responseSize: null, responseExcerpt: null, at: new Date() };
    expect(await deliveries.recordAttempt({ ...attempt, statusCode: null, error: 'network_error: ECONNREFUSED' })).toBe(1);
    expect(await deliveries.recordAttempt({ ...attempt, statusCode: 200, error: null })).toBe(2);
    await deliveries.markDelivered(row.id, row.generation + 1, new Date());
    expect((await deliveries.findById(row.id))?.status).toBe('pending');
    await deliveries.markDelivered(row.id, row.generation, new Date());
    expect(await deliveries.findById(row.id)).toMatchObject({ status: 'delivered', attempt_count: 2, last_status_code: 200 });
    expect((await deliveries.attemptsForDelivery(row.id)).map((a) => a.status_code)).toEqual([null, 200]);
  });

  it('reads a delivery with its event and current secrets, and stores each attempt with its effects in one statement', async () => {
    const endpoints = createWebhookEndpointsRepository(db, testSecretCipher(database.url));
    const deliveries = createWebhookDeliveriesRepository(db, testSecretCipher(database.url));
    const account = await createAccountsRepository(db, testSecretCipher(database.url)).findById(accountId);
    const endpoint = await endpoints.create({ accountId, url: 'https://d.example.com/h', events: ['message.sent'], at: new Date() });
    const { events: produced } = await sentAndDeliveredMessage(db, accountId, 'https://cb.example.com/y');
    const sent = produced.find((e) => e.type === 'message.sent')!;
    const [pending] = await deliveries.createForEvents(
      [
        {
          event: { id: sent.id, account_id: accountId },
          targets: [
            { targetKey: endpoint.id, endpointId: endpoint.id, url: endpoint.url },
            { targetKey: 'callback', endpointId: null, url: 'https://cb.example.com/y' },
          ],
        },
      ],
      new Date(),
    );
    const found = await deliveries.findForAttempt(pending.map((d) => d.id));
    const toEndpoint = [...found.values()].find((d) => d.endpoint_id !== null)!;
    const toCallback = [...found.values()].find((d) => d.endpoint_id === null)!;
    expect(toEndpoint).toMatchObject({
      status: 'pending',
      generation: 0,
      event: { id: sent.id, type: 'message.sent' },
      endpoint: { enabled: true, secret: endpoint.secret },
    });
    expect(toCallback).toMatchObject({ endpoint: null, callback_secret: account?.callback_secret });
    const rotated = await endpoints.rotateSecret(accountId, endpoint.id, new Date(), 60_000);
    expect((await deliveries.findForAttempt([toEndpoint.id])).get(toEndpoint.id)?.endpoint?.secret).toBe(rotated?.secret);

    // A secret that does not open (here: another row's sealed value) fails its own delivery only.
    const other = await endpoints.create({ accountId, url: 'https://d.example.com/other', events: ['message.sent'], at: new Date() });
    const [forSent] = await deliveries.createForEvents(
      [{ event: { id: sent.id, account_id: accountId }, targets: [{ targetKey: other.id, endpointId: other.id, url: other.url }] }],
      new Date(),
    );
    const toOther = forSent.find((d) => d.id !== toEndpoint.id && d.id !== toCallback.id)!;
    await db.query('UPDATE webhook_endpoints SET secret = (SELECT secret FROM webhook_endpoints WHERE id = $1) WHERE id = $2', [endpoint.id, other.id]);
    const mixed = await deliveries.findForAttempt([toEndpoint.id, toOther.id, toCallback.id]);
    expect(mixed.get(toOther.id)).toMatchObject({
      secrets_error: expect.stringContaining('does not authenticate'),
      callback_secret: null,
      endpoint: { secret: '' },
    });
    expect(mixed.get(toEndpoint.id)).toMatchObject({ endpoint: { secret: rotated?.secret } });
    expect(mixed.get(toEndpoint.id)?.secrets_error).toBeUndefined();
    expect(mixed.get(toCallback.id)?.callback_secret).toBe(account?.callback_secret);

    const at = new Date();
    const attempt = { deliveryId: toEndpoint.id, endpointId: endpoint.id, url: endpoint.url, latencyMs: 5, responseSize: null, responseExcerpt: null, at };
    const retryAt = new Date(at.getTime() + 5_000);
    const failed = await deliveries.storeAttempt(
      { ...attempt, statusCode: 503, error: 'http_status: 503' },
      { nextAttemptAt: retryAt, endpointRun: 'failure' },
    );
    expect(failed).toEqual({ attemptNo: 1, failingSince: at });
    expect(await deliveries.findById(toEndpoint.id)).toMatchObject({ status: 'pending', last_error: 'http_status: 503', next_attempt_at: retryAt });

    // A job of an older generation stores its attempt but cannot end the delivery.
    await deliveries.storeAttempt({ ...attempt, statusCode: 200, error: null }, { settle: { generation: 7, status: 'delivered' }, endpointRun: 'success' });
    expect(await deliveries.findById(toEndpoint.id)).toMatchObject({ status: 'pending', attempt_count: 2 });
    await deliveries.storeAttempt({ ...attempt, statusCode: 200, error: null }, { settle: { generation: 0, status: 'delivered' }, endpointRun: 'success' });
    expect(await deliveries.findById(toEndpoint.id)).toMatchObject({ status: 'delivered', attempt_count: 3, last_status_code: 200, next_attempt_at: null });
    expect((await endpoints.findById(endpoint.id))?.failing_since).toBeNull();
    expect((await deliveries.attemptsForDelivery(toEndpoint.id)).map((a) => [a.attempt_no, a.status_code])).toEqual([
      [1, 503],
      [2, 200],
      [3, 200],
    ]);

    await deliveries.storeAttempt(
      { ...attempt, deliveryId: toCallback.id, endpointId: null, statusCode: 410, error: 'http_status: 410' },
      { settle: { generation: 0, status: 'failed', reason: 'gone: the target answered 410' } },
    );
    expect(await deliveries.findById(toCallback.id)).toMatchObject({
      status: 'failed',
      attempt_count: 1,
      last_status_code: 410,
      last_error: 'gone: the target answered 410',
    });
  });

  it('creates deliveries and reads them for their first attempt in one statement, as findForAttempt reads them', async () => {
    const endpoints = createWebhookEndpointsRepository(db, testSecretCipher(database.url));
    const deliveries = createWebhookDeliveriesRepository(db, testSecretCipher(database.url));
    const endpoint = await endpoints.create({ accountId, url: 'https://f.example.com/h', events: ['*'], at: new Date() });
    const { events: produced } = await sentAndDeliveredMessage(db, accountId, 'https://cb.example.com/f');
    const [sent, delivered] = produced;
    const targets = [
      { targetKey: endpoint.id, endpointId: endpoint.id, url: endpoint.url },
      { targetKey: 'callback', endpointId: null, url: 'https://cb.example.com/f' },
    ];
    const plans = [
      { event: { id: sent.id, account_id: accountId }, targets },
      { event: { id: delivered.id, account_id: accountId }, targets },
    ];

    const [forSent, forDelivered] = await deliveries.createForEventsToAttempt(plans, new Date());
    expect([forSent.length, forDelivered.length]).toEqual([2, 2]);
    const readApart = await deliveries.findForAttempt([...forSent, ...forDelivered].map((d) => d.id));
    for (const d of [...forSent, ...forDelivered]) {
      expect(d).toMatchObject({ generation: 0, attempt_count: 0 });
      expect(d.forAttempt).toEqual(readApart.get(d.id));
    }
    expect(forSent.every((d) => d.forAttempt.event.id === sent.id)).toBe(true);
    expect(forSent.find((d) => d.forAttempt.endpoint_id === endpoint.id)?.forAttempt.endpoint?.secret).toBe(endpoint.secret);

    // Running again (a fan-out after a crash) creates nothing and lists what is still pending, with its attempts.
    const [tried, done] = forSent;
    const attempt = {
      endpointId: tried.forAttempt.endpoint_id,
      url: 'https://any.example.com',
      latencyMs: 1,
      responseSize: null,
      responseExcerpt: null,
      at: new Date(),
    };
    await deliveries.storeAttempt({ ...attempt, deliveryId: tried.id, statusCode: 503, error: 'http_status: 503' }, { nextAttemptAt: new Date() });
    await deliveries.storeSuccesses([
      { attempt: { ...attempt, deliveryId: done.id, endpointId: done.forAttempt.endpoint_id, statusCode: 200, error: null }, generation: 0 },
    ]);
    const [again] = await deliveries.createForEventsToAttempt([plans[0]], new Date());
    expect(again.map((d) => [d.id, d.attempt_count])).toEqual([[tried.id, 1]]);
    expect((await deliveries.forEvent(sent.id)).length).toBe(2);
  });

  it('stores the successes of concurrent attempts in one statement, each as storeAttempt would', async () => {
    const endpoints = createWebhookEndpointsRepository(db, testSecretCipher(database.url));
    const deliveries = createWebhookDeliveriesRepository(db, testSecretCipher(database.url));
    const endpoint = await endpoints.create({ accountId, url: 'https://e.example.com/h', events: ['*'], at: new Date() });
    const { events: produced } = await sentAndDeliveredMessage(db, accountId, 'https://cb.example.com/z');
    const [sent, delivered] = produced;
    const targets = [
      { targetKey: endpoint.id, endpointId: endpoint.id, url: endpoint.url },
      { targetKey: 'callback', endpointId: null, url: 'https://cb.example.com/z' },
    ];
    const [forSent, forDelivered] = await deliveries.createForEvents(
      [
        { event: { id: sent.id, account_id: accountId }, targets },
        { event: { id: delivered.id, account_id: accountId }, targets },
      ],
      new Date(),
    );
    const found = [...(await deliveries.findForAttempt(forSent.map((d) => d.id))).values()];
    const endpointDelivery = found.find((d) => d.endpoint_id !== null)!;
    const callbackDelivery = found.find((d) => d.endpoint_id === null)!;
    const at = new Date();
    const failingSince = new Date(at.getTime() - 60_000);
    await deliveries.storeAttempt(
      {
        deliveryId: endpointDelivery.id,
        endpointId: endpoint.id,
        url: endpoint.url,
        statusCode: 500,
        latencyMs: 3,
        error: 'http_status: 500',
        responseSize: 2,
        responseExcerpt: 'no',
        at: failingSince,
      },
      { endpointRun: 'failure' },
    );
    expect((await endpoints.findById(endpoint.id))?.failing_since).toEqual(failingSince);

    const success = (d: { id: string }, endpointId: string | null, generation = 0) => ({
      attempt: {
        deliveryId: d.id,
        endpointId,
        url: 'https://any.example.com',
        statusCode: 204,
        latencyMs: 7.4,
        error: null,
        responseSize: 0,
        responseExcerpt: null,
        at,
      },
      generation,
    });
    const [staleTarget, twiceTarget] = forDelivered;
    await deliveries.storeSuccesses([
      success(endpointDelivery, endpoint.id),
      success(callbackDelivery, null),
      // A stale job of an older generation: its attempt is stored, the delivery stays pending.
      success(staleTarget, null, 3),
      // The same delivery twice in one batch: both attempts are stored, numbered one after the other.
      success(twiceTarget, null),
      success(twiceTarget, null),
    ]);
    expect(await deliveries.findById(endpointDelivery.id)).toMatchObject({
      status: 'delivered',
      attempt_count: 2,
      last_status_code: 204,
      last_error: null,
      delivered_at: at,
      next_attempt_at: null,
    });
    expect(await deliveries.findById(callbackDelivery.id)).toMatchObject({ status: 'delivered', delivered_at: at });
    expect(await deliveries.findById(staleTarget.id)).toMatchObject({ status: 'pending', attempt_count: 1, delivered_at: null });
    expect(await deliveries.findById(twiceTarget.id)).toMatchObject({ status: 'delivered', attempt_count: 2 });
    expect((await deliveries.attemptsForDelivery(twiceTarget.id)).map((a) => [a.attempt_no, a.status_code, a.error, a.latency_ms])).toEqual([
      [1, 204, null, 7],
      [2, 204, null, 7],
    ]);
    // The endpoint's run of failures ended with its success.
    expect((await endpoints.findById(endpoint.id))?.failing_since).toBeNull();
  });
});
