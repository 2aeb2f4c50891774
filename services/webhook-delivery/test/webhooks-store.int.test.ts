import type { Job, JobsOptions } from 'bullmq';
import { createTestDatabase, type TestDatabase } from '@switchboard/devstack';
import type { DeliverWebhookJob } from '@switchboard/queues';
import {
  createAccountsRepository,
  createDb,
  createEventPublisher,
  createEventsRepository,
  createWebhookDeliveriesRepository,
  createWebhookEndpointsRepository,
  signingSecrets,
  type Db,
} from '@switchboard/store';
import { createFanOutEventProcessor } from '../src/processors/fan-out-event.processor';
import { sentAndDeliveredMessage } from './support/message-events';

describe('webhook repositories, publisher and fan-out (PostgreSQL)', () => {
  let database: TestDatabase;
  let db: Db;
  let accountId: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb({ url: database.url, poolSize: 4 });
    accountId = (await createAccountsRepository(db).ensure('webhooks-int')).id;
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  it('stores endpoints, finds subscribers by type or *, and keeps the old secret signing after a rotation', async () => {
    const endpoints = createWebhookEndpointsRepository(db);
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
    const { events } = await sentAndDeliveredMessage(db, accountId);
    expect(events.map((e) => e.type)).toEqual(['message.sent', 'message.delivered']);
    const repo = createEventsRepository(db);
    const future = new Date(Date.now() + 60_000);
    expect((await repo.unpublished(future, 100)).map((e) => e.id)).toEqual(expect.arrayContaining(events.map((e) => e.id)));

    const added: Array<{ name: string; opts: { jobId: string } }> = [];
    const publisher = createEventPublisher({ queue: { addBulk: async (jobs) => void added.push(...jobs) }, db });
    await publisher.publish(events);
    expect(added.map((j) => [j.name, j.opts.jobId])).toEqual(events.map((e) => ['fan-out-event', e.id]));
    expect((await repo.unpublished(future, 100)).map((e) => e.id)).not.toEqual(expect.arrayContaining([events[0].id]));
  });

  it('fans an event out to its callback_url and subscribed endpoints idempotently, and redelivery bumps the generation', async () => {
    const endpoints = createWebhookEndpointsRepository(db);
    const deliveries = createWebhookDeliveriesRepository(db);
    const events = createEventsRepository(db);
    const endpoint = await endpoints.create({ accountId, url: 'https://c.example.com/h', events: ['message.delivered'], at: new Date() });
    const { messageId, events: produced } = await sentAndDeliveredMessage(db, accountId, 'https://cb.example.com/status');
    const delivered = produced.find((e) => e.type === 'message.delivered')!;

    const enqueued: Array<{ data: DeliverWebhookJob; opts: JobsOptions }> = [];
    const fanOut = createFanOutEventProcessor({
      events,
      endpoints,
      deliveries,
      deliveryQueue: { addBulk: async (jobs) => void enqueued.push(...jobs) },
      deliveryJobOptions: { attempts: 9 },
      clock: () => new Date(),
    });
    const job = { data: { event_id: delivered.id } } as Job;
    await fanOut(job);
    await fanOut(job);
    const rows = await deliveries.forEvent(delivered.id);
    expect(rows.map((d) => [d.target_key, d.url]).sort()).toEqual([[endpoint.id, 'https://c.example.com/h'], ['callback', 'https://cb.example.com/status']].sort());
    expect(new Set(enqueued.map((j) => j.opts.jobId))).toEqual(new Set(rows.map((d) => `${d.id}-g0`)));
    expect((await events.findById(delivered.id))?.published_at).not.toBeNull();

    expect(await deliveries.resetForRedelivery(delivered.id, new Date())).toBe(2);
    expect((await deliveries.forEvent(delivered.id)).map((d) => d.generation)).toEqual([1, 1]);

    const listed = await events.list(accountId, { resourceId: messageId, limit: 10 });
    expect(listed.map((e) => e.type)).toEqual(['message.delivered', 'message.sent']);
    expect(listed[0]).toMatchObject({ delivery_status: 'pending', data: expect.objectContaining({ id: messageId, status: 'delivered', sequence: expect.any(Number) }) });
    expect(await events.list(accountId, { type: 'message.read', resourceId: messageId, limit: 10 })).toEqual([]);
    expect(await events.findForAccount('acc_someone_else', delivered.id)).toBeNull();
  });

  it('records attempts and only ends a pending delivery of the same generation', async () => {
    const deliveries = createWebhookDeliveriesRepository(db);
    const { events: produced } = await sentAndDeliveredMessage(db, accountId, 'https://cb.example.com/x');
    await deliveries.createForEvent({ id: produced[0].id, account_id: accountId }, [{ targetKey: 'callback', endpointId: null, url: 'https://cb.example.com/x' }], new Date());
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
});
