import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createDemoAccount, createTestDatabase, ensureSdkTools, REPO_ROOT, startStack, type Stack, type TestDatabase } from '@switchboard/devstack';

/*
 * The Python and PHP quick starts (clients/python/README.md, clients/php/README.md), run exactly as each README
 * writes them: the install commands in a fresh folder laid out like the repository (Python: a fresh venv), the
 * program saved under the name the README gives, run by the README's command, with only SWITCHBOARD_BASE_URL and
 * SWITCHBOARD_API_KEY set, against a stack on a port other than 8080.
 */

let database: TestDatabase;
let stack: Stack;
let apiKey: string;
const work: string[] = [];

beforeAll(async () => {
  ensureSdkTools();
  database = await createTestDatabase();
  stack = await startStack({
    databaseUrl: database.url,
    redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    prefix: `qs${randomBytes(4).toString('hex')}`,
  });
  ({ key: apiKey } = await createDemoAccount(database.url, { secretsKeys: stack.secretsKeys }));
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await database?.drop();
  for (const dir of work) rmSync(dir, { recursive: true, force: true });
});

/** The fenced blocks of a README in order, with their language. */
function codeBlocks(readme: string): Array<{ lang: string; code: string; at: number }> {
  return [...readme.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], code: m[2], at: m.index ?? 0 }));
}

/** The README's quick start: the commands before it (install), and the run commands and program under its heading. */
function quickStart(client: 'python' | 'php') {
  const readme = readFileSync(join(REPO_ROOT, 'clients', client, 'README.md'), 'utf8');
  const heading = readme.indexOf('## Quick start');
  const blocks = codeBlocks(readme);
  const install = blocks.filter((b) => b.lang === 'sh' && b.at < heading).map((b) => b.code);
  const after = blocks.filter((b) => b.at > heading);
  const run = after.find((b) => b.lang === 'sh')?.code ?? '';
  const program = after.find((b) => b.lang === client)?.code ?? '';
  // The file the run command names: `python quick_start.py`, `php quick-start.php`.
  const file = new RegExp(`^${client} (\\S+)$`, 'm').exec(run)?.[1] ?? '';
  return { install, run, program, file };
}

function runQuickStart(client: 'python' | 'php', { install, run, program, file }: ReturnType<typeof quickStart>) {
  // A folder laid out like the repository's root, so that `./clients/python` and `clients/php/autoload.php` resolve
  // as written, and pip's in-tree build leaves the repository alone.
  const dir = mkdtempSync(join(tmpdir(), `sb-quick-start-${client}-`));
  work.push(dir);
  cpSync(join(REPO_ROOT, 'clients', client), join(dir, 'clients', client), {
    recursive: true,
    filter: (path) => !/(__pycache__|\.egg-info|\/build)$/.test(path),
  });
  writeFileSync(join(dir, file), program);
  // The README's commands as written; its `export` line carries placeholders, whose real values are in the environment.
  const script = ['set -e', ...install, ...run.split('\n').filter((line) => !line.startsWith('export '))].join('\n');
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, SWITCHBOARD_BASE_URL: stack.baseUrl, SWITCHBOARD_API_KEY: apiKey };
  return spawnSync('bash', ['-c', script], { cwd: dir, env, encoding: 'utf8', timeout: 180_000 });
}

describe('the SDK quick starts, as their READMEs write them', () => {
  it('run against a stack that is not on 127.0.0.1:8080', () => {
    expect(stack.baseUrl).not.toMatch(/:8080$/);
  });

  it.each(['python', 'php'] as const)(
    '%s: installs, sends a message and reads its status until it settles',
    (client) => {
      const steps = quickStart(client);
      expect(steps.file).not.toBe('');
      expect(steps.program).toContain('SWITCHBOARD_BASE_URL');
      expect(steps.program).not.toContain('127.0.0.1:8080');
      if (client === 'python') expect(steps.install.join('\n')).toMatch(/python3 -m venv \.venv/);
      const result = runQuickStart(client, steps);
      expect({ status: result.status, stderr: result.status === 0 ? '' : result.stderr.slice(-3000) }).toEqual({ status: 0, stderr: '' });
      expect(result.stdout).toMatch(/^msg_\S+ (delivered|read)$/m);
    },
    240_000,
  );
});
