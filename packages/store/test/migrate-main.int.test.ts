import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { MIGRATIONS_DIR } from '@switchboard/store';

// The built entrypoint, as the chart's Job and docker-compose's `migrate` service run it.
const ENTRYPOINT = join(__dirname, '..', 'dist', 'migrate.main.js');
// scripts/test.mjs provides the server; the fallback is the machine's own PostgreSQL.
const baseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const name = `sb_migrate_${randomBytes(6).toString('hex')}`;
const url = Object.assign(new URL(baseUrl), { pathname: `/${name}` }).toString();

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: baseUrl });
  await client.connect();
  await client.query(sql);
  await client.end();
}

function runMigrate(env: Record<string, string>) {
  const { PATH } = process.env;
  return spawnSync(process.execPath, [ENTRYPOINT], { env: { PATH, ...env }, encoding: 'utf8' });
}

beforeAll(() => admin(`CREATE DATABASE ${name}`));
afterAll(() => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));

describe('migrate.main', () => {
  it('applies every migration to an empty database once, then nothing on a second run', async () => {
    const files = readdirSync(MIGRATIONS_DIR)
      .filter((f) => f.endsWith('.sql'))
      .sort();
    const first = runMigrate({ DATABASE_URL: url });
    expect(first.status).toBe(0);
    expect(JSON.parse(first.stdout.trim().split('\n').pop()!)).toMatchObject({ service: 'migrate', migrations: files, count: files.length });

    const second = runMigrate({ DATABASE_URL: url });
    expect(second.status).toBe(0);
    expect(JSON.parse(second.stdout.trim().split('\n').pop()!)).toMatchObject({ migrations: [], count: 0 });

    const client = new Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    await client.end();
    expect(rows.map((r) => r.name)).toEqual(files);
  });

  it('exits 78 naming DATABASE_URL when it is missing, and 1 when the store cannot be reached', () => {
    const missing = runMigrate({});
    expect(missing.status).toBe(78);
    expect(missing.stderr).toContain('DATABASE_URL is required');
    const unreachable = runMigrate({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(unreachable.status).toBe(1);
    expect(unreachable.stderr).toContain('migrate failed');
  });
});
