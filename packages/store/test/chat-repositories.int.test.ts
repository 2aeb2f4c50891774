import { createTestDatabase, testSecretCipher, type TestDatabase } from '@switchboard/devstack';
import {
  createAccountsRepository,
  createCustomerWindowsRepository,
  createDb,
  createInboundMessagesRepository,
  createNumbersRepository,
  createTemplatesRepository,
  toInboundResource,
  toTemplateResource,
  type Db,
} from '@switchboard/store';

let database: TestDatabase;
let db: Db;
let accountId: string;
let otherAccountId: string;

const BUSINESS = '+447911123410';
const CUSTOMER = '+447911123411';

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ url: database.url, poolSize: 4 });
  accountId = (await createAccountsRepository(db, testSecretCipher(database.url)).ensure('chat-int')).id;
  otherAccountId = (await createAccountsRepository(db, testSecretCipher(database.url)).ensure('chat-int-other')).id;
  await createNumbersRepository(db).add({ accountId, e164: BUSINESS, channels: ['chat', 'sms'] });
});

afterAll(async () => {
  await db.close();
  await database.drop();
});

async function insertSentMessage(id: string, wamid: string): Promise<void> {
  const at = new Date();
  await db.query(
    `INSERT INTO messages (id, account_id, mode, status, channel, plan, senders, recipient, cost_units, sequence, created_at, updated_at)
     VALUES ($1, $2, 'test', 'sent', 'chat', '{chat}', '{}', $3, 1, 1, $4, $4)`,
    [id, accountId, CUSTOMER, at],
  );
  await db.query(
    `INSERT INTO message_attempts (id, message_id, attempt_no, channel, status, upstream_message_id, created_at, updated_at)
     VALUES ($1, $2, 1, 'chat', 'sent', $3, $4, $4)`,
    [`att_${id.slice(4)}`, id, wamid, at],
  );
}

describe('templates repository', () => {
  const draft = (name: string) => ({
    accountId,
    mode: 'test' as const,
    name,
    language: 'en',
    category: 'utility',
    components: [{ type: 'body', text: 'Hi {{1}}' }],
    bodyText: 'Hi {{1}}',
    placeholderCount: 1,
    at: new Date(),
  });

  it('creates a pending template and refuses the same name and language twice', async () => {
    const repo = createTemplatesRepository(db);
    const created = await repo.create(draft('order_ready'));
    expect(created).toMatchObject({ status: 'pending', placeholder_count: 1, body_text: 'Hi {{1}}' });
    expect(await repo.create(draft('order_ready'))).toBeNull();
    expect(toTemplateResource(created!)).toMatchObject({ id: created!.id, status: 'pending', rejection_reason: null });
  });

  it('is scoped to the account', async () => {
    const repo = createTemplatesRepository(db);
    const created = (await repo.create(draft('scoped_one')))!;
    expect(await repo.findForAccount(otherAccountId, created.id)).toBeNull();
    expect(await repo.remove(otherAccountId, created.id)).toBe(false);
    expect(await repo.remove(accountId, created.id)).toBe(true);
    expect(await repo.findForAccount(accountId, created.id)).toBeNull();
  });

  it('applies a review by upstream id, and by name for a review that overtakes the submission', async () => {
    const repo = createTemplatesRepository(db);
    const a = (await repo.create(draft('review_by_id')))!;
    await repo.markSubmitted(a.id, 'up-1', 'pending', new Date());
    const changed = await repo.applyReview({ upstreamTemplateId: 'up-1', name: 'review_by_id', language: 'en', status: 'approved', at: new Date() });
    expect(changed.map((r) => r.id)).toEqual([a.id]);
    expect((await repo.findById(a.id))!.status).toBe('approved');

    const b = (await repo.create(draft('review_early')))!;
    await repo.applyReview({ upstreamTemplateId: 'up-2', name: 'review_early', language: 'en', status: 'rejected', reason: 'INVALID_FORMAT', at: new Date() });
    expect(await repo.findById(b.id)).toMatchObject({ status: 'rejected', rejection_reason: 'INVALID_FORMAT', upstream_template_id: 'up-2' });
  });

  it('lists newest first with a cursor', async () => {
    const repo = createTemplatesRepository(db);
    const page1 = await repo.list(accountId, { limit: 2 });
    expect(page1).toHaveLength(2);
    expect(page1[0].id > page1[1].id).toBe(true);
    const page2 = await repo.list(accountId, { beforeId: page1[1].id, limit: 100 });
    expect(page2.every((r) => r.id < page1[1].id)).toBe(true);
  });
});

describe('inbound messages repository', () => {
  it('stores a reply once, links its context, opens the window and writes the message.inbound event', async () => {
    await insertSentMessage('msg_01JD3Q4W6T9ZK1H8X2C5V7B3NM', 'wamid.answered');
    const repo = createInboundMessagesRepository(db);
    const receivedAt = new Date(Date.now() - 1_000);
    const input = {
      channel: 'chat',
      upstreamId: 'wamid.reply1',
      from: CUSTOMER,
      to: BUSINESS,
      type: 'reply',
      text: 'Yes',
      reply: { id: 'yes', title: 'Yes' },
      contextUpstreamId: 'wamid.answered',
      receivedAt,
    };
    const first = await repo.record(input, new Date());
    expect(first.outcome).toBe('stored');
    if (first.outcome !== 'stored') return;
    expect(first.row.account_id).toBe(accountId);
    expect(first.windowLastInboundAt?.getTime()).toBe(receivedAt.getTime());
    expect(toInboundResource(first.row)).toEqual({
      id: first.row.id,
      channel: 'chat',
      from: CUSTOMER,
      to: BUSINESS,
      type: 'reply',
      text: 'Yes',
      reply: { id: 'yes', title: 'Yes' },
      context: { message_id: 'msg_01JD3Q4W6T9ZK1H8X2C5V7B3NM' },
      received_at: receivedAt.toISOString(),
    });
    const { rows: events } = await db.query<{ type: string; resource_type: string; data: Record<string, unknown> }>(
      'SELECT type, resource_type, data FROM events WHERE resource_id = $1',
      [first.row.id],
    );
    expect(events).toEqual([{ type: 'message.inbound', resource_type: 'inbound', data: toInboundResource(first.row) }]);

    const again = await repo.record({ ...input, text: 'changed' }, new Date());
    expect(again).toMatchObject({ outcome: 'duplicate', row: { id: first.row.id, text: 'Yes' } });
    const count = await db.query('SELECT 1 FROM inbound_messages WHERE upstream_id = $1', ['wamid.reply1']);
    expect(count.rows).toHaveLength(1);
    const eventCount = await db.query('SELECT 1 FROM events WHERE resource_id = $1', [first.row.id]);
    expect(eventCount.rows).toHaveLength(1);
  });

  it('resolves the account from the business number when there is no context, and drops unowned replies', async () => {
    const repo = createInboundMessagesRepository(db);
    const stored = await repo.record(
      { channel: 'chat', upstreamId: 'wamid.plain', from: CUSTOMER, to: BUSINESS, type: 'text', text: 'hello', receivedAt: new Date() },
      new Date(),
    );
    expect(stored).toMatchObject({ outcome: 'stored', row: { account_id: accountId, context_message_id: null } });
    const unowned = await repo.record(
      { channel: 'chat', upstreamId: 'wamid.nobody', from: CUSTOMER, to: '+447911123499', type: 'text', text: 'x', receivedAt: new Date() },
      new Date(),
    );
    expect(unowned).toEqual({ outcome: 'unowned' });
  });

  it('lists newest first and is scoped to the account', async () => {
    const repo = createInboundMessagesRepository(db);
    const rows = await repo.list(accountId, { limit: 10 });
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows[0].id > rows[1].id).toBe(true);
    expect(await repo.list(otherAccountId, { limit: 10 })).toEqual([]);
    expect(await repo.findForAccount(otherAccountId, rows[0].id)).toBeNull();
    expect((await repo.list(accountId, { beforeId: rows[0].id, limit: 10 }))[0].id).toBe(rows[1].id);
  });
});

describe('customer windows', () => {
  const key = { accountId: '', sender: BUSINESS, customer: '+447911123412' };

  it('keeps the latest inbound time when messages arrive out of order', async () => {
    const repo = createCustomerWindowsRepository(db);
    const w = { ...key, accountId };
    const later = new Date('2030-01-01T12:00:00.000Z');
    expect((await repo.touch(w, later)).toISOString()).toBe(later.toISOString());
    expect((await repo.touch(w, new Date('2030-01-01T11:00:00.000Z'))).toISOString()).toBe(later.toISOString());
    expect((await repo.lastInboundAt(w))!.toISOString()).toBe(later.toISOString());
  });
});
