import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createTestDatabase, REPO_ROOT, type TestDatabase } from '@switchboard/devstack';
import { createApiKeysRepository, createDb, hashApiKey } from '@switchboard/store';

// The CLI as a user runs it (docs/authentication.md#the-cli): the built binary, JSON on stdout, against the store named
// by DATABASE_URL and REDIS_URL.
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.drop();
});

function cli(...args: string[]): { status: number | null; json: Record<string, unknown> } {
  const run = spawnSync(process.execPath, [join(REPO_ROOT, 'packages/cli/bin/switchboard.js'), ...args], {
    env: { ...process.env, DATABASE_URL: database.url, REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' },
    encoding: 'utf8',
  });
  const out = run.status === 0 ? run.stdout : run.stderr;
  return { status: run.status, json: JSON.parse(out.trim().split('\n').pop() as string) as Record<string, unknown> };
}

describe('npx switchboard', () => {
  it('creates a test key for a new account, stores only its hash, and revokes it', async () => {
    const created = cli('keys', 'create', '--account', 'cli-acme', '--scopes', 'messages:write,messages:read', '--test', '--rate-limit', '25');
    expect(created.status).toBe(0);
    expect(created.json).toMatchObject({ id: expect.stringMatching(/^key_/), account_id: expect.stringMatching(/^acc_/), scopes: ['messages:write', 'messages:read'] });
    const key = created.json.key as string;
    expect(key).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);

    const db = createDb({ url: database.url, poolSize: 1 });
    try {
      const stored = await createApiKeysRepository(db).findByHash(hashApiKey(key));
      expect(stored).toMatchObject({ id: created.json.id, mode: 'test', rate_limit_per_second: 25, revoked_at: null });
      const { rows } = await db.query('SELECT count(*)::int AS n FROM api_keys WHERE key_hash = $1 OR display_prefix = $1', [key]);
      expect(rows[0].n).toBe(0);

      expect(cli('keys', 'revoke', created.json.id as string)).toMatchObject({ status: 0, json: { id: created.json.id, revoked: true } });
      expect((await createApiKeysRepository(db).findByHash(hashApiKey(key)))?.revoked_at).not.toBeNull();
    } finally {
      await db.close();
    }
    expect(cli('keys', 'revoke', created.json.id as string).status).toBe(2);
  });

  it('provisions numbers on the account and refuses what is not E.164 or not a channel', () => {
    const added = cli('numbers', 'add', '--account', 'cli-acme', '+14155550100', '--channels', 'chat,sms');
    expect(added).toMatchObject({ status: 0, json: { e164: '+14155550100', channels: ['chat', 'sms'] } });
    expect(cli('numbers', 'add', '--account', 'cli-acme', '4155550100')).toMatchObject({ status: 2, json: { error: expect.stringContaining('E.164') } });
    expect(cli('numbers', 'add', '--account', 'cli-acme', '+14155550100', '--channels', 'fax').status).toBe(2);
    expect(cli('keys', 'create').status).toBe(2);
    expect(cli('keys', 'create', '--account', 'x', '--scopes', 'everything').status).toBe(2);
  });
});
