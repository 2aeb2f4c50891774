import { randomBytes } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@switchboard/devstack';
import {
  createAccountsRepository,
  createDb,
  createSecretCipher,
  createWebhookEndpointsRepository,
  newWebhookSecret,
  resealSecrets,
  SecretKeyring,
  type Db,
} from '../src';

// Signing secrets are sealed in the store and open only in their own row and column (docs/webhooks.md).
describe('webhook signing secrets at rest', () => {
  let database: TestDatabase;
  let db: Db;
  const oldKey = `old:${randomBytes(32).toString('base64')}`;
  const newKey = `new:${randomBytes(32).toString('base64')}`;
  const oldCipher = createSecretCipher(SecretKeyring.parse(oldKey));

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb({ url: database.url, poolSize: 4 });
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  const raw = async (sql: string, id: string) => (await db.query(sql, [id])).rows[0];

  it('stores only sealed values, hands out the secrets in clear, and keeps both across a rotation', async () => {
    const account = await createAccountsRepository(db, oldCipher).ensure('sealed');
    expect(account.callback_secret).toMatch(/^whsec_/);
    expect((await raw('SELECT callback_secret FROM accounts WHERE id = $1', account.id)).callback_secret).toMatch(/^v1\.old\./);

    const endpoints = createWebhookEndpointsRepository(db, oldCipher);
    const created = await endpoints.create({ accountId: account.id, url: 'https://example.com/h', events: ['*'], at: new Date() });
    const rotated = await endpoints.rotateSecret(account.id, created.id, new Date(), 60_000);
    expect(rotated).toMatchObject({ previous_secret: created.secret, secret: expect.stringMatching(/^whsec_/) });
    expect(rotated?.secret).not.toBe(created.secret);
    const stored = await raw('SELECT secret, previous_secret FROM webhook_endpoints WHERE id = $1', created.id);
    expect(stored.secret).toMatch(/^v1\.old\./);
    expect(stored.previous_secret).toMatch(/^v1\.old\./);
    expect(JSON.stringify(stored)).not.toContain('whsec_');
    expect(await endpoints.findById(created.id)).toMatchObject({ secret: rotated?.secret, previous_secret: created.secret });
  });

  it('refuses a sealed secret copied into another row', async () => {
    const account = await createAccountsRepository(db, oldCipher).ensure('swapped');
    const endpoints = createWebhookEndpointsRepository(db, oldCipher);
    const a = await endpoints.create({ accountId: account.id, url: 'https://example.com/a', events: ['*'], at: new Date() });
    const b = await endpoints.create({ accountId: account.id, url: 'https://example.com/b', events: ['*'], at: new Date() });
    await db.query('UPDATE webhook_endpoints SET secret = (SELECT secret FROM webhook_endpoints WHERE id = $1) WHERE id = $2', [a.id, b.id]);
    await expect(endpoints.findById(b.id)).rejects.toThrow('does not authenticate');
    expect((await endpoints.findById(a.id))?.secret).toBe(a.secret);
  });

  it('seals plaintext from before encryption and moves every value to a new active key', async () => {
    const legacySecret = newWebhookSecret();
    await db.query(`INSERT INTO accounts (id, name, callback_secret) VALUES ('acc_legacy', 'legacy', $1)`, [legacySecret]);
    const legacyEndpoint = newWebhookSecret();
    await db.query(
      `INSERT INTO webhook_endpoints (id, account_id, url, events, secret, created_at, updated_at)
       VALUES ('whk_legacy', 'acc_legacy', 'https://example.com/l', '{*}', $1, now(), now())`,
      [legacyEndpoint],
    );
    const before = await createAccountsRepository(db, oldCipher).ensure('sealed');

    const rotatedCipher = createSecretCipher(SecretKeyring.parse(`${newKey},${oldKey}`));
    const { resealed, unreadable } = await resealSecrets(db, rotatedCipher);
    expect(resealed['accounts.callback_secret']).toBeGreaterThanOrEqual(3);
    expect(resealed['webhook_endpoints.previous_secret']).toBe(1);
    // The row given another row's secret (previous test) stays as it is and is named.
    expect(unreadable).toEqual([expect.stringMatching(/^webhook_endpoints\.secret of whk_\w+ does not authenticate/)]);
    await db.query(`DELETE FROM webhook_endpoints WHERE secret NOT LIKE 'v1.new.%'`);
    expect(await resealSecrets(db, rotatedCipher)).toEqual({
      resealed: { 'accounts.callback_secret': 0, 'webhook_endpoints.secret': 0, 'webhook_endpoints.previous_secret': 0 },
      unreadable: [],
    });

    const { rows } = await db.query<{ v: string }>(
      `SELECT callback_secret AS v FROM accounts UNION ALL SELECT secret FROM webhook_endpoints
       UNION ALL SELECT previous_secret FROM webhook_endpoints WHERE previous_secret IS NOT NULL`,
    );
    for (const { v } of rows) expect(v).toMatch(/^v1\.new\./);

    // The old key can go now: the new one alone opens everything, with the same secrets as before.
    const newOnly = createSecretCipher(SecretKeyring.parse(newKey));
    expect((await createAccountsRepository(db, newOnly).findById('acc_legacy'))?.callback_secret).toBe(legacySecret);
    expect((await createAccountsRepository(db, newOnly).findById(before.id))?.callback_secret).toBe(before.callback_secret);
    expect((await createWebhookEndpointsRepository(db, newOnly).findById('whk_legacy'))?.secret).toBe(legacyEndpoint);
    await expect(createAccountsRepository(db, oldCipher).findById(before.id)).rejects.toThrow('key "new"');
  });
});
