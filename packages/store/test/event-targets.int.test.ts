import { newId } from '@switchboard/domain';
import { createTestDatabase, testSecretCipher, type TestDatabase } from '@switchboard/devstack';
import {
  createAccountsRepository,
  createDb,
  createEventTargetsRepository,
  createMessageWritesRepository,
  createWebhookEndpointsRepository,
  type Db,
  type MessageWritesRepository,
  type StoredEvent,
} from '../src';

// Which committed events fan-out would deliver to anyone (docs/webhooks.md#events), against a real PostgreSQL.
let database: TestDatabase;
let db: Db;
let writes: MessageWritesRepository;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ url: database.url, poolSize: 4 });
  writes = createMessageWritesRepository(db);
});

afterAll(async () => {
  await db.close();
  await database.drop();
});

const AT = new Date('2025-01-01T10:00:00.000Z');

/** A message moved to `sent` by the batched change statement; its `message.sent` event as that statement returned it. */
async function sentEvent(accountId: string, callbackUrl?: string): Promise<StoredEvent> {
  const id = newId('msg');
  await writes.persistAccepted({
    id,
    account_id: accountId,
    mode: 'test',
    channel: 'sms',
    plan: ['sms'],
    senders: { sms: { e164: '+14155550100' } },
    recipient: '+447911123456',
    content: { text: 'hello' },
    cost_units: 1,
    created_at: AT.toISOString(),
    ...(callbackUrl ? { callback_url: callbackUrl } : {}),
  });
  const started = await writes.startAttempt({ messageId: id, channel: 'sms', sender: '+14155550100', at: AT });
  if (started.outcome !== 'started') throw new Error('expected a started attempt');
  const sent = await writes.attemptAccepted({ messageId: id, attemptId: started.attempt.id, upstreamMessageId: `smsc-${id}`, at: AT });
  expect(sent.events).toHaveLength(1);
  return sent.events[0];
}

/** The same, with the event left unpublished as the single-change paths leave every event. */
async function sendingEvent(accountId: string, callbackUrl?: string): Promise<string> {
  const { id } = await sentEvent(accountId, callbackUrl);
  await db.query('UPDATE events SET published_at = NULL WHERE id = $1', [id]);
  return id;
}

async function publishedAt(eventId: string) {
  return (await db.query<{ published_at: Date | null }>('SELECT published_at FROM events WHERE id = $1', [eventId])).rows[0].published_at;
}

describe('the batched change statement', () => {
  it('inserts an event nobody would receive already published, and flags it so that publishing skips it', async () => {
    const accounts = createAccountsRepository(db, testSecretCipher(database.url));
    const quiet = (await accounts.ensure('insert-quiet')).id;
    const subscribed = (await accounts.ensure('insert-subscribed')).id;
    const otherType = (await accounts.ensure('insert-other-type')).id;
    const disabled = (await accounts.ensure('insert-disabled')).id;
    const endpoints = createWebhookEndpointsRepository(db, testSecretCipher(database.url));
    await endpoints.create({ accountId: subscribed, url: 'https://example.com/hook', events: ['message.sent'], at: AT });
    await endpoints.create({ accountId: otherType, url: 'https://example.com/hook', events: ['message.read'], at: AT });
    const off = await endpoints.create({ accountId: disabled, url: 'https://example.com/hook', events: ['*'], at: AT });
    await db.query('UPDATE webhook_endpoints SET enabled = false WHERE id = $1', [off.id]);

    const noTarget = await sentEvent(quiet);
    const withCallback = await sentEvent(quiet, 'https://example.com/callback');
    const withEndpoint = await sentEvent(subscribed);
    const notSubscribed = await sentEvent(otherType);
    const endpointDisabled = await sentEvent(disabled);

    for (const event of [noTarget, notSubscribed, endpointDisabled]) {
      expect({ id: event.id, published: event.published }).toEqual({ id: event.id, published: true });
      expect(await publishedAt(event.id)).not.toBeNull();
    }
    // Those with a target stay in the outbox until their fan-out job is queued.
    for (const event of [withCallback, withEndpoint]) {
      expect({ id: event.id, published: event.published }).toEqual({ id: event.id, published: undefined });
      expect(await publishedAt(event.id)).toBeNull();
    }
  });
});

describe('publishUntargeted', () => {
  it('marks published the events nobody would receive and returns the rest, in one call', async () => {
    const accounts = createAccountsRepository(db, testSecretCipher(database.url));
    const quiet = (await accounts.ensure('targets-quiet')).id;
    const subscribed = (await accounts.ensure('targets-subscribed')).id;
    const otherType = (await accounts.ensure('targets-other-type')).id;
    const endpoints = createWebhookEndpointsRepository(db, testSecretCipher(database.url));
    await endpoints.create({ accountId: subscribed, url: 'https://example.com/hook', events: ['*'], at: AT });
    await endpoints.create({ accountId: otherType, url: 'https://example.com/hook', events: ['message.read'], at: AT });

    const noTarget = await sendingEvent(quiet);
    const withCallback = await sendingEvent(quiet, 'https://example.com/callback');
    const withEndpoint = await sendingEvent(subscribed);
    const notSubscribed = await sendingEvent(otherType);
    const publishAt = new Date('2025-01-01T10:00:01.000Z');

    const targeted = await createEventTargetsRepository(db).publishUntargeted([noTarget, withCallback, withEndpoint, notSubscribed], publishAt);

    expect(targeted).toEqual([withCallback, withEndpoint]);
    expect(await publishedAt(noTarget)).toEqual(publishAt);
    expect(await publishedAt(notSubscribed)).toEqual(publishAt);
    // The others stay in the outbox until their fan-out job is queued.
    expect(await publishedAt(withCallback)).toBeNull();
    expect(await publishedAt(withEndpoint)).toBeNull();
  });
});
