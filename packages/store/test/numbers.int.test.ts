import { cpSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { NumberAlreadyProvisionedError } from '@switchboard/domain';
import { createTestDatabase, testSecretCipher, type TestDatabase } from '@switchboard/devstack';
import { createAccountsRepository, createDb, createNumbersRepository, migrate, MIGRATIONS_DIR, type Db } from '../src';

// One owner per number (docs/numbers.md), enforced by the store's unique constraint.
describe('numbers: one owner per E.164 number', () => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb({ url: database.url, poolSize: 8 });
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  const account = async (name: string) => (await createAccountsRepository(db, testSecretCipher(database.url)).ensure(name)).id;

  it('re-adds a number to its owner idempotently, with the new channels, and refuses it to another account', async () => {
    const numbers = createNumbersRepository(db);
    const [owner, other] = [await account('owner'), await account('other')];
    const first = await numbers.add({ accountId: owner, e164: '+14155550111', channels: ['sms'] });
    const again = await numbers.add({ accountId: owner, e164: '+14155550111', channels: ['sms', 'chat'] });
    expect(again).toMatchObject({ id: first.id, account_id: owner, channels: ['sms', 'chat'] });

    const refused = numbers.add({ accountId: other, e164: '+14155550111', channels: ['sms'] });
    await expect(refused).rejects.toBeInstanceOf(NumberAlreadyProvisionedError);
    await expect(refused).rejects.toMatchObject({ status: 409, code: 'number_already_provisioned' });
    expect(await numbers.listForAccount(other)).toEqual([]);
    expect((await numbers.listForAccount(owner)).map((n) => n.channels)).toEqual([['sms', 'chat']]);
  });

  it('leaves exactly one owner when several accounts add the same number at once', async () => {
    const numbers = createNumbersRepository(db);
    const accounts = await Promise.all(Array.from({ length: 8 }, (_, i) => account(`racer-${i}`)));
    const outcomes = await Promise.allSettled(accounts.map((accountId) => numbers.add({ accountId, e164: '+14155550122', channels: ['sms'] })));
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(NumberAlreadyProvisionedError);
    const { rows } = await db.query('SELECT account_id FROM numbers WHERE e164 = $1', ['+14155550122']);
    expect(rows).toEqual([{ account_id: (won[0] as PromiseFulfilledResult<{ account_id: string }>).value.account_id }]);
  });
});

describe('migration 005 on a store that already holds duplicates', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    // A database with the migrations before 005 only: the state of a store written by the older code.
    database = await createTestDatabase();
    const admin = new Client({ connectionString: database.url });
    await admin.connect();
    await admin.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
    await admin.end();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('keeps the earliest provisioning as owner and moves the others to numbers_removed_duplicates', async () => {
    const before = mkdtempSync(join(tmpdir(), 'sb-migrations-'));
    for (const file of readdirSync(MIGRATIONS_DIR).filter((f) => f < '005')) cpSync(join(MIGRATIONS_DIR, file), join(before, file));
    const db = createDb({ url: database.url, poolSize: 1 });
    try {
      await migrate(db, before);
      await db.query(`INSERT INTO accounts (id, name, callback_secret) VALUES ('acc_a', 'a', 'x'), ('acc_b', 'b', 'x'), ('acc_c', 'c', 'x')`);
      await db.query(
        `INSERT INTO numbers (id, account_id, e164, channels, created_at) VALUES
           ('num_b', 'acc_b', '+14155550133', '{sms}', '2026-01-02'),
           ('num_a', 'acc_a', '+14155550133', '{chat}', '2026-01-01'),
           ('num_c', 'acc_c', '+14155550133', '{rcs}', '2026-01-03'),
           ('num_solo', 'acc_c', '+14155550144', '{sms}', '2026-01-01')`,
      );

      expect(await migrate(db)).toEqual(
        readdirSync(MIGRATIONS_DIR)
          .filter((f) => f >= '005' && f.endsWith('.sql'))
          .sort(),
      );
      const kept = await db.query('SELECT id, account_id FROM numbers ORDER BY id');
      expect(kept.rows).toEqual([
        { id: 'num_a', account_id: 'acc_a' },
        { id: 'num_solo', account_id: 'acc_c' },
      ]);
      const removed = await db.query('SELECT id, account_id, e164, channels, kept_number_id, kept_account_id FROM numbers_removed_duplicates ORDER BY id');
      expect(removed.rows).toEqual([
        { id: 'num_b', account_id: 'acc_b', e164: '+14155550133', channels: ['sms'], kept_number_id: 'num_a', kept_account_id: 'acc_a' },
        { id: 'num_c', account_id: 'acc_c', e164: '+14155550133', channels: ['rcs'], kept_number_id: 'num_a', kept_account_id: 'acc_a' },
      ]);
      await expect(db.query(`INSERT INTO numbers (id, account_id, e164, channels) VALUES ('num_d', 'acc_b', '+14155550144', '{sms}')`)).rejects.toThrow(
        /numbers_one_owner/,
      );
    } finally {
      await db.close();
    }
  });
});
