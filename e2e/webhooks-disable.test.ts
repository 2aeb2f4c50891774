import { randomBytes } from 'node:crypto';
import { createAccountKey, createTestDatabase, eventually, type ServiceProcess, type TestDatabase } from '@switchboard/devstack';
import { createDb, type Db } from '@switchboard/store';
import { sentAndDeliveredMessage } from '../services/webhook-delivery/test/support/message-events';
import { createTestPublisher, ReceiverProcess, startWebhookApi, startWebhookDelivery, webhookDeliveryEnv } from './webhooks-harness';

// Contract §7: an endpoint that has failed for WEBHOOK_DISABLE_AFTER_MS (5 days by default; 1.5 s here) is disabled.
describe('disabling an endpoint that keeps failing (real processes)', () => {
  const prefix = `sbwd${randomBytes(4).toString('hex')}`;
  let database: TestDatabase;
  let db: Db;
  let worker: ServiceProcess;
  let api: Awaited<ReturnType<typeof startWebhookApi>>;
  let publish: ReturnType<typeof createTestPublisher>;
  const receiver = new ReceiverProcess();

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb({ url: database.url, poolSize: 4 });
    await receiver.start();
    worker = await startWebhookDelivery(
      webhookDeliveryEnv(database.url, prefix, { WEBHOOK_RETRY_SCHEDULE_MS: '0,1000,1000,1000,1000', WEBHOOK_DISABLE_AFTER_MS: '1500' }),
    );
    api = await startWebhookApi({ db, prefix, policy: { allowHttp: true, allowPrivateNetworks: false, allowedHosts: ['127.0.0.1'] } });
    publish = createTestPublisher(db, prefix);
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver.kill();
    await api?.close();
    await publish?.close();
    await db?.close();
    await database?.drop();
  });

  it('disables the endpoint once it has failed for longer than the limit, and says why', async () => {
    const { key, accountId } = await createAccountKey(database.url, { account: `failing-${prefix}`, scopes: ['*'] });
    const registered = await api.request(key, 'POST', '/v1/webhooks', { url: receiver.url('/always-500'), events: ['*'] });
    expect(registered.status).toBe(201);
    const endpointId = (registered.body as { id: string }).id;
    await receiver.behave('/always-500', { status: 500 });

    const { events } = await sentAndDeliveredMessage(db, accountId);
    await publish.publisher.publish(events);
    const endpoint = await eventually(
      async () => (await api.request(key, 'GET', `/v1/webhooks/${endpointId}`)).body as { enabled: boolean; disabled_reason: string | null },
      (e) => e.enabled === false,
      { what: 'endpoint disabled after failing too long', timeoutMs: 20_000 },
    );
    expect(endpoint.disabled_reason).toMatch(/^failing: no success since /);
    const event = await eventually(
      async () => (await api.request(key, 'GET', `/v1/events/${events[0].id}`)).body as { delivery_status: string },
      (e) => e.delivery_status === 'failed',
      { what: 'the delivery ended as a dead letter' },
    );
    expect(event.delivery_status).toBe('failed');
  });
});
