import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createScheduler } from '../src/support/scheduler';
import { createJsonLogger } from '../src/support/json-logger';
import { createWebhookPoster, type WebhookPoster } from '../src/webhooks/webhook-poster';

// The poster pipelines webhooks over a few keep-alive connections (docs/upstream-wire.md#webhook-transport):
// against a real node:http server, every webhook must arrive once as its own request, byte for byte, and a
// server that closes or fails must cost retries, never webhooks.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Seen {
  body: string;
  signature: string | undefined;
  socket: Socket;
}

/** Servers a test started, closed after it even when it fails (an open server would keep jest running). */
const servers: Array<{ close(): Promise<void> }> = [];

async function startServer(answer: (req: IncomingMessage, res: ServerResponse, seen: Seen[]) => void) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ body, signature: req.headers['x-goog-signature'] as string | undefined, socket: req.socket });
      answer(req, res, seen);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let closed: Promise<void> | null = null;
  const handle = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rbm/events?x=1`,
    seen,
    close: () => {
      server.closeAllConnections();
      closed ??= new Promise<void>((resolve) => server.close(() => resolve()));
      return closed;
    },
  };
  servers.push(handle);
  return handle;
}

async function until(check: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(10);
  }
}

describe('webhook poster', () => {
  let poster: WebhookPoster;
  const scheduler = createScheduler(() => undefined);
  const warnings: string[] = [];
  const logger = createJsonLogger({ service: 'test', level: 'warn', write: (line) => warnings.push(line) });
  beforeEach(() => {
    poster = createWebhookPoster({ scheduler, logger, retryDelaysMs: [20, 20, 20], timeoutMs: 2000 });
  });
  afterEach(async () => {
    poster.stop();
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  afterAll(() => scheduler.cancelAll());

  it('delivers a burst as separate requests, byte for byte, over a few connections', async () => {
    const server = await startServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok'));
    const bodies = Array.from({ length: 500 }, (_, i) => JSON.stringify({ n: i, text: `é ${'x'.repeat(i % 7)}` }));
    for (const [i, body] of bodies.entries()) poster.post({ url: server.url, body, headers: { 'X-Goog-Signature': `sig-${i}` }, kind: 'test' });
    await until(() => server.seen.length === 500);
    expect(server.seen.map((s) => s.body).sort()).toEqual([...bodies].sort());
    expect(server.seen.every((s) => s.signature === `sig-${JSON.parse(s.body).n}`)).toBe(true);
    expect(new Set(server.seen.map((s) => s.socket)).size).toBeLessThanOrEqual(8);
  });

  it('sends again what a server that closes after each answer left unanswered, without using up its attempts', async () => {
    // More webhooks than (attempts × connections): if each unanswered one cost an attempt, some would be given up.
    const answered = new Set<string>();
    const server = await startServer((_req, res, seen) => {
      const body = seen.at(-1)?.body as string;
      res.on('finish', () => answered.add(body));
      res.writeHead(200, { Connection: 'close', 'Content-Length': '2' }).end('ok');
    });
    for (let i = 0; i < 60; i += 1) poster.post({ url: server.url, body: `{"n":${i}}`, headers: {}, kind: 'test.closing' });
    await until(() => answered.size === 60);
    expect(warnings.filter((line) => line.includes('test.closing'))).toEqual([]);
  });

  it('retries a failed answer, and a chunked answer does not confuse the next one', async () => {
    const server = await startServer((_req, res, seen) => {
      const first = seen.filter((s) => s.body === seen.at(-1)?.body).length === 1;
      res.writeHead(first ? 503 : 200);
      res.write('part one, ');
      res.end('part two');
    });
    for (let i = 0; i < 30; i += 1) poster.post({ url: server.url, body: `{"n":${i}}`, headers: {}, kind: 'test' });
    // Each body is answered 503 once, then 200.
    await until(() => server.seen.length === 60);
    await sleep(100);
    expect(server.seen).toHaveLength(60);
  });

  it('gives up after the schedule on a server that is not there, and says so', async () => {
    const server = await startServer(() => undefined);
    const url = server.url;
    await server.close();
    poster.post({ url, body: '{}', headers: {}, kind: 'test.gone' });
    await until(() => warnings.some((line) => line.includes('webhook given up') && line.includes('test.gone')));
  });
});
