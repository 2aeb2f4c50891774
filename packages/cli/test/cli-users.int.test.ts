import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, REPO_ROOT, testSecretsKeys, type TestDatabase } from '@switchboard/devstack';
import { createDb } from '@switchboard/store';

// `switchboard users create` as a user runs it (docs/console.md#sign-in): the built binary against a fresh database.
let database: TestDatabase;
const BIN = join(REPO_ROOT, 'packages/cli/bin/switchboard.js');
// A folder with no .switchboard/local.json, so the link's base URL comes only from what each case gives.
const cwd = mkdtempSync(join(tmpdir(), 'sb-cli-users-'));

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.drop();
});

function cli(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, [BIN, 'users', 'create', ...args], {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      SECRETS_ENCRYPTION_KEYS: testSecretsKeys(database.url),
      SWITCHBOARD_HOME: '',
      ...env,
    },
  });
  const out = (run.status === 0 ? run.stdout : run.stderr).trim().split('\n').pop() as string;
  return { status: run.status, json: JSON.parse(out) as Record<string, string> };
}

describe('npx switchboard users create', () => {
  it('prints a one-time sign-in link whose token is stored only as a hash', async () => {
    const created = cli(['--account', 'cli-console', '--email', 'Ada@Example.com', '--role', 'owner', '--base-url', 'https://sb.example.com/']);
    expect(created.status).toBe(0);
    expect(created.json).toMatchObject({
      id: expect.stringMatching(/^usr_/),
      account_id: expect.stringMatching(/^acc_/),
      email: 'ada@example.com',
      role: 'owner',
    });
    expect(created.json).not.toHaveProperty('token');
    const token = /^https:\/\/sb\.example\.com\/console\/welcome#token=([A-Za-z0-9_-]{43})$/.exec(created.json.sign_in_url)?.[1];
    expect(token).toBeDefined();
    const db = createDb({ url: database.url, poolSize: 1 });
    try {
      const { rows } = await db.query<{ token_hash: string }>('SELECT token_hash FROM console_signin_tokens WHERE user_id = $1', [created.json.id]);
      expect(rows).toEqual([
        {
          token_hash: createHash('sha256')
            .update(token as string)
            .digest('hex'),
        },
      ]);
    } finally {
      await db.close();
    }
  });

  it('issues a new link and changes the role on a second run; refuses the email for another account', () => {
    const again = cli(['--account', 'cli-console', '--email', 'ada@example.com', '--role', 'viewer', '--base-url', 'http://127.0.0.1:8080']);
    expect(again).toMatchObject({
      status: 0,
      json: { email: 'ada@example.com', role: 'viewer', sign_in_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:8080\/console\/welcome#token=/) },
    });
    const other = cli(['--account', 'cli-other', '--email', 'ada@example.com', '--role', 'owner', '--base-url', 'http://x.test']);
    expect(other).toMatchObject({ status: 2, json: { code: 'console_user_exists' } });
  });

  it('exits 2 naming what is wrong with the arguments', () => {
    expect(cli(['--account', 'a', '--email', 'b@example.com', '--role', 'admin', '--base-url', 'http://x.test'])).toMatchObject({
      status: 2,
      json: { error: expect.stringContaining('--role') },
    });
    expect(cli(['--account', 'a', '--email', 'not-an-email', '--role', 'owner', '--base-url', 'http://x.test'])).toMatchObject({
      status: 2,
      json: { error: expect.stringContaining('email') },
    });
    expect(cli(['--account', 'a', '--email', 'b@example.com', '--role', 'owner'])).toMatchObject({
      status: 2,
      json: { error: expect.stringContaining('--base-url') },
    });
  });
});
