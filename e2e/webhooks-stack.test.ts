import { randomBytes } from 'node:crypto';
import { createAccountKey, createTestDatabase, eventually, startStack, type Stack, type TestDatabase } from '@switchboard/devstack';
import { ReceiverProcess, TEST_REDIS_URL, verify } from './webhooks-harness';

// Through the whole stack: an SMS sent with a test key and a callback_url gets its message.sent and
// message.delivered events at that URL, signed with the account's callback secret.
describe('webhooks through the full stack', () => {
  let database: TestDatabase;
  let stack: Stack;
  const receiver = new ReceiverProcess();

  // Starting the whole stack can take longer than jest's default 5 s hook timeout on a busy machine.
  beforeAll(async () => {
    database = await createTestDatabase();
    await receiver.start();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: TEST_REDIS_URL,
      prefix: `sbws${randomBytes(4).toString('hex')}`,
      workers: ['dispatcher', 'webhook-delivery'],
      env: {
        TARGET_ALLOW_HTTP: 'true',
        TARGET_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_RETRY_SCHEDULE_MS: '0,200,500,1000',
      },
    });
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
    await receiver.kill();
    await database?.drop();
  });

  it('delivers signed message.sent and message.delivered to the callback_url', async () => {
    const { key, callbackSecret } = await createAccountKey(database.url, { account: 'stack-webhooks', scopes: ['*'] });
    const res = await fetch(`${stack.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'sms', recipient: '+447911123400', content: { text: 'webhooks' }, callback_url: receiver.url('/stack') }),
    });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const received = await eventually(
      async () => receiver.received('/stack').map((d) => verify(callbackSecret, d)),
      (events) => ['message.sent', 'message.delivered'].every((t) => events.some((e) => e.type === t)),
      { what: 'message.sent and message.delivered at the callback_url', timeoutMs: 60_000 },
    );
    for (const event of received) expect(event.data.id).toBe(id);
  });
});
