import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { connect } from 'node:net';
import { freePort } from '@switchboard/devstack';
import { errorLines, httpClient, REPO_ROOT, startDefaultRun, stillRunning, type Answer, type DefaultRun } from './default-run-stack';

/**
 * The default run itself: `npm start` with no DATABASE_URL and no REDIS_URL (so the embedded PostgreSQL
 * and a private Redis), under 50 concurrent keep-alive senders for 10 s while the CLI creates keys and
 * clients list and read messages. 429 answers are expected (the demo key's limit is 1000/s); a 5xx, a lost
 * message or a service logging at `error` level is a failure. See docs/architecture.md, "Embedded PostgreSQL".
 * npm is started and stopped as a supervisor does it: a signal to npm's PID alone, SIGTERM then SIGINT, and
 * every process below npm must be gone, the port closed, and the next start must find nothing left behind; SIGTERM
 * to one service alone stops the whole stack too (docs/running.md#stopping).
 */
const run = promisify(execFile);
const CONNECTIONS = 50;
const LOAD_MS = 10_000;
const DRAIN_TIMEOUT_MS = 240_000;
const FINAL = new Set(['delivered', 'read']);

let home: string;
let stack: DefaultRun | undefined;

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'sb-default-run-'));
  // The embedded PostgreSQL runs as the postgres user when we are root; it must reach its cluster here.
  chmodSync(home, 0o755);
});

afterAll(async () => {
  await stack?.stop('SIGINT', 60_000).catch(() => stack?.child.kill('SIGKILL'));
  rmSync(home, { recursive: true, force: true });
}, 90_000);

/** Whether something accepts TCP connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Stops the run with `signal` to npm's PID alone; every process below npm ends and nothing listens on `port`. */
async function stopThroughNpm(run: DefaultRun, signal: NodeJS.Signals, port: number): Promise<void> {
  const pids = run.descendantPids();
  // start.mjs, five services, Redis and the PostgreSQL postmaster at least.
  expect(pids.length).toBeGreaterThanOrEqual(8);
  expect(await run.stop(signal, 60_000)).toBe(0);
  expect(stillRunning(pids)).toEqual([]);
  expect(await listening(port)).toBe(false);
  expect(existsSync(join(home, 'postgres', 'postmaster.pid'))).toBe(false);
  expect(existsSync(join(home, 'local.json'))).toBe(false);
}

/** Every message of the account in `status`, through the list endpoint's cursor pages. */
async function idsIn(client: ReturnType<typeof httpClient>, key: string, status: string): Promise<Set<string>> {
  const ids = new Set<string>();
  let cursor: string | null = null;
  for (;;) {
    const page: Answer = await client.call('GET', `/v1/messages?status=${status}&limit=100${cursor ? `&cursor=${cursor}` : ''}`, key);
    if (page.status === 429) {
      await new Promise((r) => setTimeout(r, 200));
      continue;
    }
    expect(page.status).toBe(200);
    const parsed = JSON.parse(page.body) as { data: Array<{ id: string }>; next_cursor: string | null };
    for (const m of parsed.data) ids.add(m.id);
    cursor = parsed.next_cursor;
    if (!cursor) break;
  }
  return ids;
}

it('npm start holds under concurrent sends, CLI key creation and reads, and SIGTERM to npm stops everything', async () => {
  const port = await freePort();
  stack = await startDefaultRun(home, port, 180_000);
  const { baseUrl, demoKey, cliEnv } = stack;
  const load = httpClient(baseUrl, CONNECTIONS);
  const side = httpClient(baseUrl, 4);
  const statuses = new Map<number, number>();
  const accepted: string[] = [];
  const failures: string[] = [];
  const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const until = Date.now() + LOAD_MS;

  const sender = async (worker: number) => {
    for (let n = 0; Date.now() < until; n++) {
      const recipient = `+4479111${String((worker * 97 + n) % 1_000).padStart(3, '0')}00`;
      const answer = await load
        .call('POST', '/v1/messages', demoKey, { channel: 'sms', recipient, content: { text: `load ${worker}/${n}` } })
        .catch((e: Error) => {
          failures.push(`POST: ${e.message}`);
          return undefined;
        });
      if (!answer) continue;
      count(answer.status);
      if (answer.status === 202) accepted.push((JSON.parse(answer.body) as { id: string }).id);
      else if (answer.status !== 429) failures.push(`POST ${answer.status}: ${answer.body.slice(0, 300)}`);
    }
  };

  const keysCreated: string[] = [];
  const cliCreatesKeys = async () => {
    for (let n = 0; Date.now() < until; n++) {
      const { stdout } = await run(
        process.execPath,
        [join(REPO_ROOT, 'packages/cli/bin/switchboard.js'), 'keys', 'create', '--account', `cli-load-${n}`, '--test'],
        {
          cwd: tmpdir(),
          env: cliEnv,
        },
      );
      const key = (JSON.parse(stdout) as { key: string }).key;
      const first = await side.call('GET', '/v1/messages?limit=5', key);
      if (first.status !== 200) failures.push(`a key the CLI just created answered ${first.status}: ${first.body.slice(0, 300)}`);
      keysCreated.push(key);
    }
  };

  const reads: number[] = [];
  const reader = async () => {
    while (Date.now() < until) {
      const list = await side.call('GET', '/v1/messages?limit=20', demoKey);
      reads.push(list.status);
      const id = accepted[Math.floor(Math.random() * accepted.length)];
      if (id) reads.push((await side.call('GET', `/v1/messages/${id}`, demoKey)).status);
    }
  };

  await Promise.all([...Array.from({ length: CONNECTIONS }, (_, w) => sender(w)), cliCreatesKeys(), reader(), reader()]);
  load.close();

  expect(failures).toEqual([]);
  expect(accepted.length).toBeGreaterThan(0);
  expect(keysCreated.length).toBeGreaterThan(0);
  expect(reads.filter((s) => s !== 200 && s !== 429)).toEqual([]);
  expect([...statuses.keys()].filter((s) => s >= 500)).toEqual([]);

  // Every accepted message reaches a final state: polled through the list endpoint, with a key of its own.
  const { stdout } = await run(process.execPath, [join(REPO_ROOT, 'packages/cli/bin/switchboard.js'), 'keys', 'create', '--account', 'demo', '--test'], {
    cwd: tmpdir(),
    env: cliEnv,
  });
  const pollKey = (JSON.parse(stdout) as { key: string }).key;
  let pending = new Set(accepted);
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  while (pending.size > 0 && Date.now() < deadline) {
    const done = new Set<string>();
    for (const status of FINAL) for (const id of await idsIn(side, pollKey, status)) done.add(id);
    pending = new Set([...pending].filter((id) => !done.has(id)));
    if (pending.size > 0) await new Promise((r) => setTimeout(r, 2_000));
  }
  const sample = await Promise.all([...pending].slice(0, 5).map((id) => side.call('GET', `/v1/messages/${id}`, pollKey).then((a) => a.body.slice(0, 300))));
  expect({ pending: pending.size, of: accepted.length, sample }).toEqual({ pending: 0, of: accepted.length, sample: [] });
  side.close();

  // SIGTERM to npm's PID stops every process below it, the embedded PostgreSQL included.
  await stopThroughNpm(stack, 'SIGTERM', port);

  // No service logged at error level, start-up and shutdown included.
  expect(errorLines([...stack.stdout, ...stack.stderr])).toEqual([]);
}, 360_000);

it('a second npm start in the same SWITCHBOARD_HOME finds no orphan, prints where state lives and the API reference, and SIGINT to npm stops everything', async () => {
  const port = await freePort();
  stack = await startDefaultRun(home, port, 180_000);
  const banner = stack.stdout.join('\n');
  expect(banner).toMatch(new RegExp(`State:\\s+${home}\\s`));
  expect(banner).toContain(`SWITCHBOARD_HOME=${home} npx switchboard`);
  expect(banner).toMatch(new RegExp(`API reference:\\s+${stack.baseUrl}/docs\\s`));
  const reference = await fetch(`${stack.baseUrl}/docs`);
  expect(reference.status).toBe(200);
  expect(reference.headers.get('content-type')).toMatch(/text\/html/);

  // The CLI line of the banner, run from another folder as another shell would, reaches this stack.
  const cliLine = /CLI:\s+SWITCHBOARD_HOME=(\S+) npx switchboard (.+?)\s{3}/.exec(banner);
  expect(cliLine?.[1]).toBe(home);
  const { stdout } = await run(process.execPath, [join(REPO_ROOT, 'packages/cli/bin/switchboard.js'), ...(cliLine?.[2] ?? '').split(' ')], {
    cwd: tmpdir(),
    env: { ...stack.cliEnv, SWITCHBOARD_HOME: cliLine?.[1] },
  });
  const key = (JSON.parse(stdout) as { key: string }).key;
  expect((await fetch(`${stack.baseUrl}/v1/messages?limit=1`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);

  await stopThroughNpm(stack, 'SIGINT', port);
  expect(errorLines([...stack.stdout, ...stack.stderr])).toEqual([]);
}, 300_000);

it('SIGTERM to one service of the stack stops the whole stack, npm included, and says which process ended', async () => {
  const port = await freePort();
  stack = await startDefaultRun(home, port, 180_000);
  const pids = stack.descendantPids();
  const gateway = pids.find((pid) =>
    spawnSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).stdout.includes('services/api-gateway/dist/main.js'),
  );
  expect(gateway).toBeDefined();
  const npmExit = new Promise<number | null>((resolve) => stack?.child.once('exit', (code) => resolve(code)));
  process.kill(gateway as number, 'SIGTERM');
  // Not a stop that was asked for: npm start exits 1, after stopping everything else.
  expect(await npmExit).toBe(1);
  expect(stillRunning(pids)).toEqual([]);
  expect(await listening(port)).toBe(false);
  expect(existsSync(join(home, 'postgres', 'postmaster.pid'))).toBe(false);
  expect(stack.stderr.join('\n')).toContain(`api-gateway (pid ${gateway}) exited`);
}, 300_000);
