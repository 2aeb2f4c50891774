import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { waitFor } from '@switchboard/devstack';
import { childPids, connectionOwner } from './support/connection-owner';
import { startGatewayHarness, textMessage, type GatewayHarness } from './support/gateway-harness';

// GATEWAY_WORKERS=2 over real HTTP (docs/running.md#gateway-workers): what a client sees must not depend on
// which worker its connection was handed to. Each check uses one keep-alive connection per worker, found
// through /proc, so that "across workers" is a fact of the test rather than a hope about the scheduler.
jest.setTimeout(90_000);

let h: GatewayHarness;
let workers: number[];

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

interface Client {
  /** The worker that holds this client's connection. */
  worker: number;
  send(method: string, path: string, options?: { key?: string; idempotencyKey?: string; json?: unknown }): Promise<Answer>;
  close(): void;
}

function sendOn(
  agent: Agent,
  method: string,
  path: string,
  { key, idempotencyKey, json }: { key?: string; idempotencyKey?: string; json?: unknown } = {},
): Promise<Answer & { clientPort: number }> {
  return new Promise((resolve, reject) => {
    const body = json === undefined ? undefined : JSON.stringify(json);
    let clientPort = 0;
    const req = request(
      {
        host: '127.0.0.1',
        port: h.gateway.port,
        method,
        path,
        agent,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString(), clientPort }));
        res.on('error', reject);
      },
    );
    req.on('socket', (socket) => {
      const note = () => (clientPort = socket.localPort ?? 0);
      if (socket.connecting) socket.once('connect', note);
      else note();
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Opens keep-alive connections until one lands on each worker; the extra ones are closed. */
async function clientPerWorker(): Promise<Client[]> {
  const found = new Map<number, Client>();
  for (let attempt = 0; attempt < 20 && found.size < workers.length; attempt += 1) {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const { clientPort } = await sendOn(agent, 'GET', '/healthz');
    const worker = connectionOwner(workers, h.gateway.port, clientPort);
    if (worker === undefined || found.has(worker)) {
      agent.destroy();
      continue;
    }
    found.set(worker, { worker, send: (method, path, options) => sendOn(agent, method, path, options), close: () => agent.destroy() });
  }
  expect([...found.keys()].sort()).toEqual([...workers].sort());
  return [...found.values()];
}

async function bothWorkersListening(): Promise<number[]> {
  await waitFor(async () => /"event":"ready"/.test(h.gateway.logs()) && childPids(h.gateway.child.pid as number).length === 2, 'two workers listening', 30_000);
  return childPids(h.gateway.child.pid as number);
}

let listeningWhenReady: number;

beforeAll(async () => {
  // startService returns once /readyz answers 200.
  h = await startGatewayHarness({ GATEWAY_WORKERS: '2', LOG_LEVEL: 'info' });
  // Within a second of that answer the primary's log has caught up (its lines travel by another pipe).
  await waitFor(async () => /"event":"ready"/.test(h.gateway.logs()), 'the ready line', 1_000).catch(() => undefined);
  listeningWhenReady = (h.gateway.logs().match(/"gateway worker listening"/g) ?? []).length;
  workers = await bothWorkersListening();
});

afterAll(async () => {
  await h?.close();
});

it('is ready, and logs "ready" once from the primary, only when both workers listen', () => {
  expect(listeningWhenReady).toBe(2);
  expect(h.gateway.logs().match(/"event":"ready"/g)).toHaveLength(1);
  expect(workers).toHaveLength(2);
});

it('fails to start as one process would when its workers cannot start', () => {
  const main = join(__dirname, '..', 'dist', 'main.js');
  const run = spawnSync(process.execPath, [main], {
    env: { ...process.env, GATEWAY_WORKERS: '2', PORT: '0', DATABASE_URL: 'postgres://127.0.0.1:1/none', SECRETS_ENCRYPTION_KEYS: 'not a key' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(run.status).toBe(78);
  expect(run.stderr).toContain('SECRETS_ENCRYPTION_KEYS is invalid');
  expect(run.stdout).toContain('gateway worker failed to start');
});

it('replays an Idempotency-Key answer given by one worker from the other, byte for byte', async () => {
  const { key } = await h.key({ mode: 'test' });
  const [first, second] = await clientPerWorker();
  const idempotencyKey = randomUUID();
  const original = await first.send('POST', '/v1/messages', { key, idempotencyKey, json: textMessage() });
  expect(original.status).toBe(202);
  const replay = await second.send('POST', '/v1/messages', { key, idempotencyKey, json: textMessage() });
  expect({ status: replay.status, replayed: replay.headers['idempotent-replayed'], body: replay.body }).toEqual({
    status: 202,
    replayed: 'true',
    body: original.body,
  });
  const reused = await second.send('POST', '/v1/messages', { key, idempotencyKey, json: textMessage({ content: { text: 'another body' } }) });
  expect({ status: reused.status, code: JSON.parse(reused.body).code }).toEqual({ status: 422, code: 'idempotency_key_reused' });
  expect(await h.messageQueue.getJobCountByTypes('waiting', 'prioritized', 'delayed', 'active')).toBe(1);
  for (const c of [first, second]) c.close();
});

it('holds one rate limit per key across both workers', async () => {
  const { key } = await h.key({ mode: 'test', rateLimitPerSecond: 4 });
  const clients = await clientPerWorker();
  // Eight sends at once, four on each worker: a limit per process would accept all eight.
  const answers = await Promise.all(clients.flatMap((c) => Array.from({ length: 4 }, () => c.send('POST', '/v1/messages', { key, json: textMessage() }))));
  const statuses = answers.map((a) => a.status).sort();
  expect(statuses).toEqual([202, 202, 202, 202, 429, 429, 429, 429]);
  for (const c of clients) c.close();
});

it('serves /metrics from either worker with the requests both served', async () => {
  const { key } = await h.key({ mode: 'test' });
  const clients = await clientPerWorker();
  const scrape = async (c: Client) => {
    const text = (await c.send('GET', '/metrics')).body;
    const line = text
      .split('\n')
      .find((l) => l.startsWith('http_requests_total{') && l.includes('route="/v1/messages"') && l.includes('method="POST"') && l.includes('status="202"'));
    return Number(line?.split(' ').pop() ?? 0);
  };
  const before = await scrape(clients[0]);
  // Three sends on the first worker, two on the second.
  for (const [c, n] of [
    [clients[0], 3],
    [clients[1], 2],
  ] as const) {
    for (let i = 0; i < n; i += 1) expect((await c.send('POST', '/v1/messages', { key, json: textMessage() })).status).toBe(202);
  }
  expect(await scrape(clients[0])).toBe(before + 5);
  expect(await scrape(clients[1])).toBe(before + 5);
  // The queue-depth gauges are read once, by the scraped worker, not summed over workers.
  const text = (await clients[1].send('GET', '/metrics')).body;
  expect(text.match(/^# TYPE http_requests_total counter$/gm)).toHaveLength(1);
  const waiting = text.split('\n').find((l) => l.startsWith('switchboard_queue_jobs{') && l.includes('queue="message-send"') && l.includes('state="waiting"'));
  expect(Number(waiting?.split(' ').pop())).toBe((await h.messageQueue.getWaitingCount()) + (await h.messageQueue.getPrioritizedCount()));
  for (const c of clients) c.close();
});

it('forks a worker again when one dies, and keeps serving', async () => {
  const [victim, survivor] = workers;
  process.kill(victim, 'SIGKILL');
  await waitFor(
    async () => {
      const now = childPids(h.gateway.child.pid as number);
      return now.length === 2 && !now.includes(victim) && now.includes(survivor);
    },
    'a new worker',
    30_000,
  );
  workers = childPids(h.gateway.child.pid as number);
  await waitFor(async () => (h.gateway.logs().match(/"gateway worker listening"/g) ?? []).length === 3, 'the new worker listening', 30_000);
  const { key } = await h.key({ mode: 'test' });
  const clients = await clientPerWorker();
  for (const c of clients) expect((await c.send('POST', '/v1/messages', { key, json: textMessage() })).status).toBe(202);
  for (const c of clients) c.close();
});

it('survives SIGHUP, the certificate-reload signal, with its workers', async () => {
  h.gateway.child.kill('SIGHUP');
  await waitFor(async () => /SIGHUP ignored/.test(h.gateway.logs()), 'the SIGHUP log line', 10_000);
  expect(childPids(h.gateway.child.pid as number).sort()).toEqual([...workers].sort());
  expect((await h.request('/healthz')).status).toBe(200);
});

it('drains every worker on SIGTERM and exits 0', async () => {
  const { key } = await h.key({ mode: 'test' });
  const clients = await clientPerWorker();
  const jobsBefore = await h.messageQueue.getJobCountByTypes('waiting', 'prioritized', 'delayed', 'active');
  // Each client keeps sending on its connection until the drain closes it.
  const sending = clients.map(async (c) => {
    const statuses: number[] = [];
    for (;;) {
      try {
        const answer = await c.send('POST', '/v1/messages', { key, json: textMessage() });
        statuses.push(answer.status);
        if (answer.headers.connection === 'close') return { statuses, ended: 'closed' };
      } catch (error) {
        return { statuses, ended: (error as NodeJS.ErrnoException).code ?? 'error' };
      }
    }
  });
  await new Promise((r) => setTimeout(r, 1_000));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    h.gateway.child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  h.gateway.child.kill('SIGTERM');
  expect(await exited).toEqual({ code: 0, signal: null });
  const results = await Promise.all(sending);
  // Every connection was told to close: no request written on it went unanswered.
  expect(results.map((r) => r.ended)).toEqual(['closed', 'closed']);
  const accepted = results.flatMap((r) => r.statuses).filter((s) => s === 202).length;
  expect(results.flatMap((r) => r.statuses).filter((s) => s !== 202 && s !== 429)).toEqual([]);
  // Every 202 answer stands for a job in the queue.
  expect(accepted).toBeGreaterThan(0);
  expect(await h.messageQueue.getJobCountByTypes('waiting', 'prioritized', 'delayed', 'active')).toBe(jobsBefore + accepted);
  for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
  expect(h.gateway.logs()).toMatch(/"message":"shutdown complete"/);
  expect(h.gateway.logs()).not.toMatch(/"level":"error"/);
});
