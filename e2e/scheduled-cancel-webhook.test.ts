import { randomBytes } from 'node:crypto';
import { eventually } from '@switchboard/devstack';
import { ReceiverProcess, startWebhookStack, verify, type WebhookStack } from './webhooks-harness';

// The cancel's event reaches webhooks like every other event (docs/messages.md#canceling-a-scheduled-message):
// a real gateway and webhook-delivery, a real receiver for the message's callback_url.
const prefix = `sbcx${randomBytes(4).toString('hex')}`;
let h: WebhookStack;
const receiver = new ReceiverProcess();

beforeAll(async () => {
  await receiver.start();
  h = await startWebhookStack({ prefix });
}, 90_000);

afterAll(async () => {
  await h?.stop();
  await receiver.kill();
});

it('delivers message.canceled, signed, to the callback_url of a canceled scheduled message', async () => {
  const { key } = await h.keyFor(`cancel-${prefix}`);
  const sendAt = new Date(Date.now() + 120_000).toISOString();
  const accepted = await h.request(key, 'POST', '/v1/messages', {
    channel: 'sms',
    recipient: '+14155550501',
    send_at: sendAt,
    callback_url: receiver.url('/cancel/callback'),
    content: { text: 'never' },
  });
  expect(accepted.status).toBe(202);
  expect((await h.request(key, 'DELETE', `/v1/messages/${accepted.body.id}`)).status).toBe(200);

  const [delivery] = await eventually(
    () => Promise.resolve(receiver.received('/cancel/callback')),
    (d) => d.length > 0,
    { what: 'message.canceled delivered', timeoutMs: 30_000 },
  );
  const envelope = JSON.parse(delivery.body);
  expect(envelope).toMatchObject({ type: 'message.canceled', data: { id: accepted.body.id, status: 'canceled' } });
  const secret = (await h.request(key, 'GET', '/v1/account/webhook-secret')).body.secret;
  expect(() => verify(secret, delivery)).not.toThrow();
}, 60_000);
