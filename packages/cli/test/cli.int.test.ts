import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, REPO_ROOT, testSecretsKeys, type TestDatabase } from '@switchboard/devstack';
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

const BIN = join(REPO_ROOT, 'packages/cli/bin/switchboard.js');

function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: database.url,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    SECRETS_ENCRYPTION_KEYS: testSecretsKeys(database.url),
    ...extra,
  };
}

function lastJsonLine(out: string): Record<string, unknown> {
  return JSON.parse(out.trim().split('\n').pop() as string) as Record<string, unknown>;
}

function cli(...args: string[]): { status: number | null; json: Record<string, unknown> } {
  const run = spawnSync(process.execPath, [BIN, ...args], { env: cliEnv(), encoding: 'utf8' });
  return { status: run.status, json: lastJsonLine(run.status === 0 ? run.stdout : run.stderr) };
}

/** The CLI as a separate process that runs alongside others. */
function cliAsync(...args: string[]): Promise<{ status: number | null; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: cliEnv() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('exit', (status) => resolve({ status, json: lastJsonLine(status === 0 ? stdout : stderr) }));
  });
}

describe('npx switchboard', () => {
  it('creates a test key for a new account, stores only its hash, and revokes it', async () => {
    const created = cli('keys', 'create', '--account', 'cli-acme', '--scopes', 'messages:write,messages:read', '--test', '--rate-limit', '25');
    expect(created.status).toBe(0);
    expect(created.json).toMatchObject({
      id: expect.stringMatching(/^key_/),
      account_id: expect.stringMatching(/^acc_/),
      scopes: ['messages:write', 'messages:read'],
    });
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

  it('refuses an unknown flag or a missing value with exit 2 and {error, code}, creating nothing', async () => {
    expect(cli('keys', 'create', '--account', 'cli-typo', '--tset')).toMatchObject({
      status: 2,
      json: { code: 'unknown_flag', error: expect.stringContaining('--tset') },
    });
    expect(cli('keys', 'create', '--account', 'cli-typo', '--bogus-flag')).toMatchObject({ status: 2, json: { code: 'unknown_flag' } });
    expect(cli('keys', 'create', '--account', '--test')).toMatchObject({ status: 2, json: { code: 'missing_value' } });
    expect(cli('keys', 'create', '--account', 'cli-typo', '--test', '--live')).toMatchObject({ status: 2, json: { code: 'conflicting_flags' } });
    const db = createDb({ url: database.url, poolSize: 1 });
    try {
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM accounts WHERE name = 'cli-typo'`);
      expect(rows[0].n).toBe(0);
    } finally {
      await db.close();
    }
    const help = spawnSync(process.execPath, [BIN, 'keys', 'create', '--help'], { env: cliEnv(), encoding: 'utf8' });
    expect(help.status).toBe(0);
    for (const flag of ['--account', '--scopes', '--test', '--live', '--rate-limit', '--help']) expect(help.stdout).toContain(flag);
  });

  it('says a well-formed number that no region dials is not dialable, and malformed input is not E.164', () => {
    expect(cli('numbers', 'add', '--account', 'cli-acme', '+15551230001')).toMatchObject({
      status: 2,
      json: { code: 'invalid_number', error: expect.stringContaining('is not a dialable number for its region (US') },
    });
    expect(cli('numbers', 'add', '--account', 'cli-acme', '+1555')).toMatchObject({
      status: 2,
      json: { error: expect.stringContaining('is not an E.164 number') },
    });
  });

  it('refuses a number that another account holds with exit 2 and number_already_provisioned, and re-adds it to its owner', () => {
    expect(cli('numbers', 'add', '--account', 'cli-owner', '+14155550155', '--channels', 'sms')).toMatchObject({ status: 0, json: { e164: '+14155550155' } });
    const refused = cli('numbers', 'add', '--account', 'cli-intruder', '+14155550155');
    expect(refused).toMatchObject({ status: 2, json: { code: 'number_already_provisioned', error: expect.stringContaining('+14155550155') } });
    const again = cli('numbers', 'add', '--account', 'cli-owner', '+14155550155', '--channels', 'sms,chat');
    expect(again).toMatchObject({ status: 0, json: { e164: '+14155550155', channels: ['sms', 'chat'] } });
  });

  it('gives a number raced for by two accounts to exactly one of them', async () => {
    const runs = await Promise.all(
      ['cli-race-a', 'cli-race-b', 'cli-race-a', 'cli-race-b'].map((account) => cliAsync('numbers', 'add', '--account', account, '+14155550166')),
    );
    const winners = new Set(runs.filter((r) => r.status === 0).map((r) => r.json.account_id));
    expect(winners.size).toBe(1);
    for (const r of runs.filter((r) => r.status !== 0)) expect(r).toMatchObject({ status: 2, json: { code: 'number_already_provisioned' } });
    const db = createDb({ url: database.url, poolSize: 1 });
    try {
      const { rows } = await db.query('SELECT account_id FROM numbers WHERE e164 = $1', ['+14155550166']);
      expect(rows).toEqual([{ account_id: [...winners][0] }]);
    } finally {
      await db.close();
    }
  });

  it('needs the secrets key, and re-seals every stored secret on request', async () => {
    const withoutKey = spawnSync(process.execPath, [BIN, 'keys', 'create', '--account', 'cli-nokey'], {
      env: cliEnv({ SECRETS_ENCRYPTION_KEYS: '' }),
      cwd: mkdtempSync(join(tmpdir(), 'sb-cli-')),
      encoding: 'utf8',
    });
    expect(withoutKey.status).toBe(2);
    expect(lastJsonLine(withoutKey.stderr).error).toMatch(/^SECRETS_ENCRYPTION_KEYS is required/);

    // A callback secret stored in clear by a version from before encryption.
    const db = createDb({ url: database.url, poolSize: 1 });
    try {
      await db.query(`INSERT INTO accounts (id, name, callback_secret) VALUES ('acc_cli_legacy', 'cli-legacy', 'whsec_bGVnYWN5LXNlY3JldA==')`);
      const reencrypt = cli('secrets', 'reencrypt');
      expect(reencrypt).toMatchObject({ status: 0, json: { active_kid: 'test1', unreadable: [], resealed: { 'accounts.callback_secret': 1 } } });
      const { rows } = await db.query(`SELECT callback_secret FROM accounts WHERE id = 'acc_cli_legacy'`);
      expect(rows[0].callback_secret).toMatch(/^v1\.test1\./);
      expect(cli('secrets', 'reencrypt').json.resealed).toMatchObject({ 'accounts.callback_secret': 0 });
    } finally {
      await db.close();
    }
  });
});
