import { randomBytes } from 'node:crypto';
import { eventually } from '@switchboard/devstack';
import type { Db } from '@switchboard/store';
import { WEBHOOK_DISABLE_AFTER_MS } from '../services/webhook-delivery/src/processors/delivery-attempt';
import { sentAndDeliveredMessage } from '../services/webhook-delivery/test/support/message-events';
import { ReceiverProcess, startWebhookStack, type WebhookStack } from './webhooks-harness';

// Contract §7: an endpoint that has failed for WEBHOOK_DISABLE_AFTER_MS (5 days, a constant) is disabled. The test moves
// the start of the endpoint's failing run back by those 5 days, so the next failure of the real retries is past them.
describe('disabling an endpoint that keeps failing (real processes)', () => {
  const prefix = `sbwd${randomBytes(4).toString('hex')}`;
  let h: WebhookStack;
  let db: Db;
  let api: Pick<WebhookStack, 'request'>;
  let publish: WebhookStack['publish'];
  const receiver = new ReceiverProcess();

  beforeAll(async () => {
    await receiver.start();
    h = await startWebhookStack({
      prefix,
      env: { WEBHOOK_RETRY_SCHEDULE_MS: '0,1000,1000,1000,1000' },
      gatewayEnv: { TARGET_ALLOW_PRIVATE_NETWORKS: 'false', TARGET_ALLOWED_HOSTS: '127.0.0.1' },
    });
    ({ db, publish } = h);
    api = h;
  });
  afterAll(async () => {
    await h?.stop();
    await receiver.kill();
  });

  it('disables the endpoint once it has failed for longer than the limit, and says why', async () => {
    const { key, accountId } = await h.keyFor(`failing-${prefix}`);
    const registered = await api.request(key, 'POST', '/v1/webhooks', { url: receiver.url('/always-500'), events: ['*'] });
    expect(registered.status).toBe(201);
    const endpointId = (registered.body as { id: string }).id;
    await receiver.behave('/always-500', { status: 500 });

    const { events } = await sentAndDeliveredMessage(db, accountId);
    await publish.publisher.publish(events);
    // The first failure starts the run; seconds of failing leave the endpoint enabled.
    const failingSince = await eventually(
      async () =>
        (await db.query<{ failing_since: Date | null }>('SELECT failing_since FROM webhook_endpoints WHERE id = $1', [endpointId])).rows[0].failing_since,
      (at) => at !== null,
      { what: 'the endpoint failing' },
    );
    expect(((await api.request(key, 'GET', `/v1/webhooks/${endpointId}`)).body as { enabled: boolean }).enabled).toBe(true);
    const backdated = new Date(failingSince!.getTime() - WEBHOOK_DISABLE_AFTER_MS);
    await db.query('UPDATE webhook_endpoints SET failing_since = $2 WHERE id = $1', [endpointId, backdated]);

    const endpoint = await eventually(
      async () => (await api.request(key, 'GET', `/v1/webhooks/${endpointId}`)).body as { enabled: boolean; disabled_reason: string | null },
      (e) => e.enabled === false,
      { what: 'endpoint disabled after failing too long', timeoutMs: 20_000 },
    );
    expect(endpoint.disabled_reason).toBe(`failing: no success since ${backdated.toISOString()}`);
    const event = await eventually(
      async () => (await api.request(key, 'GET', `/v1/events/${events[0].id}`)).body as { delivery_status: string },
      (e) => e.delivery_status === 'failed',
      { what: 'the delivery ended as a dead letter' },
    );
    expect(event.delivery_status).toBe('failed');
  });
});
