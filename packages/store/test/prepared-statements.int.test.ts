import { createTestDatabase, testSecretCipher, type TestDatabase } from '@switchboard/devstack';
import { createAccountsRepository, createDb, createEventsRepository, preparedStatement, withPreparedStatements, type Db } from '../src';

describe('prepared statements (PostgreSQL)', () => {
  let database: TestDatabase;
  let db: Db;
  let accountId: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    // One connection: the statement list read below is that of the connection that ran the queries.
    db = createDb({ url: database.url, poolSize: 1 });
    accountId = (await createAccountsRepository(db, testSecretCipher(database.url)).ensure('prepared-statements')).id;
  });
  afterAll(async () => {
    await db.close();
    await database.drop();
  });

  const preparedOnConnection = async (): Promise<string[]> =>
    (await db.query<{ name: string }>('SELECT name FROM pg_prepared_statements ORDER BY name')).rows.map((r) => r.name);

  it('sends a registered text as a named statement, with the same rows, and leaves other texts and the plain Db alone', async () => {
    await db.query(
      `INSERT INTO events (id, account_id, type, resource_type, resource_id, sequence, data, created_at)
       VALUES ('evt_prepared1', $1, 'message.sent', 'message', 'msg_prepared1', 1, '{}', now())`,
      [accountId],
    );
    const plain = await createEventsRepository(db).fanOutPlans(['evt_prepared1']);
    expect(await preparedOnConnection()).not.toContain('events-fan-out-plans');

    const prepared = withPreparedStatements(db);
    const first = await createEventsRepository(prepared).fanOutPlans(['evt_prepared1']);
    const again = await createEventsRepository(prepared).fanOutPlans(['evt_prepared1']);
    expect(await preparedOnConnection()).toContain('events-fan-out-plans');
    expect(first).toEqual(plain);
    expect(again).toEqual(plain);
    expect(first.get('evt_prepared1')?.event.type).toBe('message.sent');

    // An unregistered text passes through unnamed; the wrapper keeps the Db's other methods.
    await prepared.query('SELECT 1 AS one');
    expect((await preparedOnConnection()).filter((name) => name !== 'events-fan-out-plans')).toEqual([]);
    await expect(prepared.transaction((tx) => tx.query('SELECT 2 AS two'))).resolves.toMatchObject({ rows: [{ two: 2 }] });
    await expect(prepared.ping()).resolves.toBeUndefined();
  });

  it('refuses one text under two names, since a connection would prepare it twice', () => {
    const text = 'SELECT 42 AS answer';
    expect(preparedStatement('answer', text)).toBe(text);
    expect(preparedStatement('answer', text)).toBe(text);
    expect(() => preparedStatement('another-answer', text)).toThrow(/already prepared as answer/);
  });
});
