import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, NetworkError } from '../src/errors';
import { Switchboard } from '../src/client';

interface Seen {
  method: string;
  url: string;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
  body: string;
}

type Answer = (req: IncomingMessage, res: ServerResponse, n: number) => void;

/** A real HTTP server that answers the n-th request with answers[n] (the last one repeats) and records each request. */
async function server(answers: Answer[]) {
  const seen: Seen[] = [];
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = seen.length;
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        authorization: req.headers.authorization,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      answers[Math.min(n, answers.length - 1)](req, res, n);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    });
  return { url, seen, close };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Answer =>
  (_req, res) =>
    res.writeHead(status, { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers }).end(JSON.stringify(body));
const problem = (status: number, code: string, headers: Record<string, string> = {}): Answer =>
  json(status, { type: `/errors/${code}`, title: code, status, code, request_id: 'req_1' }, headers);
const accepted = json(202, {
  id: 'msg_1',
  status: 'queued',
  channel: 'sms',
  recipient: '+447911123456',
  cost_units: 1,
  created_at: '',
  estimated_delivery: '',
});

/** A client whose waits are recorded instead of slept, with jitter fixed at its ceiling. */
function client(baseUrl: string, maxAttempts = 4) {
  const waits: number[] = [];
  const sb = new Switchboard({
    baseUrl,
    apiKey: 'sk_test_x',
    retry: { maxAttempts, baseDelayMs: 100, maxDelayMs: 1000 },
    random: () => 1,
    sleep: async (ms) => void waits.push(ms),
  });
  return { sb, waits };
}

test('a send retried through two 503s carries one Idempotency-Key, waits the doubling backoff, and returns the answer', async () => {
  const api = await server([problem(503, 'unavailable'), problem(503, 'unavailable'), accepted]);
  try {
    const { sb, waits } = client(api.url);
    const message = await sb.messages.send({ channel: 'sms', recipient: '+447911123456', text: 'hi' });
    assert.equal(message.id, 'msg_1');
    assert.equal(api.seen.length, 3);
    const keys = new Set(api.seen.map((s) => s.idempotencyKey));
    assert.equal(keys.size, 1);
    assert.match([...keys][0] ?? '', /^[0-9a-f-]{36}$/);
    assert.deepEqual(waits, [100, 200]);
    assert.deepEqual(JSON.parse(api.seen[0].body), { channel: 'sms', recipient: '+447911123456', content: { text: 'hi' } });
    assert.equal(api.seen[0].authorization, 'Bearer sk_test_x');
  } finally {
    await api.close();
  }
});

test('each send gets its own key; a given key is sent as it is', async () => {
  const api = await server([accepted]);
  try {
    const { sb } = client(api.url);
    await sb.messages.send({ channel: 'sms', recipient: '+447911123456', text: 'a' });
    await sb.messages.sendChat({ to: '+447911123456', type: 'text', text: { body: 'b' } });
    await sb.messages.send({ channel: 'sms', recipient: '+447911123456', text: 'c' }, { idempotencyKey: 'order-42' });
    assert.equal(new Set(api.seen.map((s) => s.idempotencyKey)).size, 3);
    assert.equal(api.seen[1].url, '/v1/messages/chat');
    assert.equal(api.seen[2].idempotencyKey, 'order-42');
  } finally {
    await api.close();
  }
});

test('Retry-After is honoured on a 429 even for a POST without a key; a 5xx on such a POST is not retried', async () => {
  const api = await server([problem(429, 'rate_limited', { 'retry-after': '3' }), json(201, { id: 'whk_1', secret: 'whsec_x' }), problem(502, 'bad_gateway')]);
  try {
    const { sb, waits } = client(api.url);
    const created = await sb.webhooks.create({ url: 'https://example.com/hook', events: ['*'] });
    assert.equal(created.id, 'whk_1');
    assert.deepEqual(waits, [3000]);
    await assert.rejects(sb.webhooks.create({ url: 'https://example.com/hook', events: ['*'] }), (e: unknown) => e instanceof ApiError && e.status === 502);
    assert.equal(api.seen.length, 3, 'the 502 to a POST without an Idempotency-Key is not repeated');
  } finally {
    await api.close();
  }
});

test('a 409 idempotency_key_in_use is waited out; other 4xx fail at once with every problem field', async () => {
  const invalid = json(400, {
    type: '/errors/validation_failed',
    title: 'Invalid request',
    status: 400,
    detail: 'recipient is not E.164',
    code: 'validation_failed',
    request_id: 'req_9',
    errors: [{ field: '/recipient', message: 'must be E.164' }],
  });
  const api = await server([problem(409, 'idempotency_key_in_use', { 'retry-after': '1' }), accepted, invalid]);
  try {
    const { sb, waits } = client(api.url);
    assert.equal((await sb.messages.send({ channel: 'sms', recipient: '+447911123456', text: 'x' })).id, 'msg_1');
    assert.deepEqual(waits, [1000]);
    const error = await sb.messages.send({ channel: 'sms', recipient: 'nope', text: 'x' }).catch((e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.deepEqual(
      { status: error.status, type: error.type, title: error.title, detail: error.detail, code: error.code, requestId: error.requestId, errors: error.errors },
      {
        status: 400,
        type: '/errors/validation_failed',
        title: 'Invalid request',
        detail: 'recipient is not E.164',
        code: 'validation_failed',
        requestId: 'req_9',
        errors: [{ field: '/recipient', message: 'must be E.164' }],
      },
    );
    assert.match(error.message, /validation_failed.*\/recipient must be E\.164/);
    assert.equal(api.seen.length, 3);
  } finally {
    await api.close();
  }
});

test('after the last attempt the last error is thrown; a non-JSON error body still gives its status and header request id', async () => {
  const api = await server([(_req, res) => res.writeHead(503, { 'x-request-id': 'req_h' }).end('upstream down')]);
  try {
    const { sb, waits } = client(api.url, 3);
    const error = await sb.messages.get('msg_1').catch((e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.equal(error.status, 503);
    assert.equal(error.requestId, 'req_h');
    assert.equal(api.seen.length, 3);
    assert.equal(waits.length, 2);
  } finally {
    await api.close();
  }
});

test('a refused connection is retried for a GET and then thrown as a NetworkError', async () => {
  const api = await server([accepted]);
  await api.close();
  const { sb, waits } = client(api.url, 3);
  await assert.rejects(sb.messages.get('msg_1'), (e: unknown) => e instanceof NetworkError && /GET \/v1\/messages\/msg_1/.test(e.message));
  assert.deepEqual(waits, [100, 200]);
});

test('a connection cut before the answer is retried for a send, with the same key, and the replayed answer is returned', async () => {
  const api = await server([(req) => req.socket.destroy(), accepted]);
  try {
    const { sb } = client(api.url);
    assert.equal((await sb.messages.send({ channel: 'sms', recipient: '+447911123456', text: 'x' })).id, 'msg_1');
    assert.equal(api.seen.length, 2);
    assert.equal(api.seen[0].idempotencyKey, api.seen[1].idempotencyKey);
  } finally {
    await api.close();
  }
});

test('the list iterator follows next_cursor to the last page and passes the filters on every page', async () => {
  const pages: Record<string, unknown> = {
    '': { data: [{ id: 'm1' }, { id: 'm2' }], next_cursor: 'c2' },
    c2: { data: [{ id: 'm3' }], next_cursor: 'c3' },
    c3: { data: [], next_cursor: null },
  };
  const api = await server([
    (req, res) => {
      const cursor = new URL(req.url ?? '', 'http://x').searchParams.get('cursor') ?? '';
      json(200, pages[cursor])(req, res, 0);
    },
  ]);
  try {
    const { sb } = client(api.url);
    const ids = (await sb.messages.list({ recipient: '+447911123456', limit: 2 }).toArray()).map((m) => m.id);
    assert.deepEqual(ids, ['m1', 'm2', 'm3']);
    assert.deepEqual(
      api.seen.map((s) => s.url),
      [
        '/v1/messages?recipient=%2B447911123456&limit=2',
        '/v1/messages?recipient=%2B447911123456&limit=2&cursor=c2',
        '/v1/messages?recipient=%2B447911123456&limit=2&cursor=c3',
      ],
    );
    assert.deepEqual(
      (await sb.messages.list().toArray(1)).map((m) => m.id),
      ['m1'],
      'toArray(max) stops early',
    );
    assert.equal(api.seen.length, 4);
  } finally {
    await api.close();
  }
});

test('ids are escaped into the path, so they cannot reach another route', async () => {
  const api = await server([json(200, { id: 'x' }), (_req, res) => res.writeHead(204).end()]);
  try {
    const { sb } = client(api.url);
    await sb.messages.get('../account?x=1');
    await sb.webhooks.delete('a/b');
    assert.deepEqual(
      api.seen.map((s) => `${s.method} ${s.url}`),
      ['GET /v1/messages/..%2Faccount%3Fx%3D1', 'DELETE /v1/webhooks/a%2Fb'],
    );
  } finally {
    await api.close();
  }
});

test('an answer cut off mid-body is a network error, retried like one', async () => {
  const api = await server([
    (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"id":"msg_');
      setImmediate(() => res.socket?.destroy());
    },
    json(200, { id: 'msg_whole' }),
  ]);
  try {
    const { sb } = client(api.url);
    assert.equal((await sb.messages.get('msg_whole')).id, 'msg_whole');
    assert.equal(api.seen.length, 2);
  } finally {
    await api.close();
  }
});

test('an attempt that gets no answer within timeoutMs is abandoned and retried', async () => {
  // The first request is never answered; the client gives up on it after timeoutMs and sends the next.
  const api = await server([() => undefined, json(200, { id: 'msg_late' })]);
  try {
    const waits: number[] = [];
    const sb = new Switchboard({ baseUrl: api.url, apiKey: 'sk_test_x', timeoutMs: 2000, random: () => 0, sleep: async (ms) => void waits.push(ms) });
    assert.equal((await sb.messages.get('msg_late')).id, 'msg_late');
    assert.equal(api.seen.length, 2);
    assert.deepEqual(waits, [0]);
  } finally {
    await api.close();
  }
});

test('a recording comes back as the exact bytes, a retried call create keeps its key, and a missing recording is an ApiError', async () => {
  // Every byte value, including ones that are not valid UTF-8, must survive: the body is never decoded as text.
  const wav = Buffer.from([0x52, 0x49, 0x46, 0x46, 0x00, 0xff, 0xfe, 0x80, 0xc3, 0x28]);
  const bytes: Answer = (_req, res) => res.writeHead(200, { 'content-type': 'audio/wav' }).end(wav);
  const created = json(201, { call_id: 'call_1', status: 'ringing', to: '+447911123400', from: '+447911123499', agent_id: null, created_at: '' });
  const api = await server([problem(503, 'unavailable'), created, bytes, problem(404, 'not_found')]);
  try {
    const { sb } = client(api.url);
    const call = await sb.calls.create({ to: '+447911123400', from: '+447911123499' });
    assert.equal(call.call_id, 'call_1');
    assert.equal(api.seen[0].idempotencyKey, api.seen[1].idempotencyKey);
    assert.ok(api.seen[0].idempotencyKey);
    assert.deepEqual(Buffer.from(await sb.calls.recording('call_1')), wav);
    assert.equal(api.seen[2].url, '/v1/voice/calls/call_1/recording');
    await assert.rejects(sb.calls.recording('call_1'), (e: unknown) => e instanceof ApiError && e.status === 404 && e.code === 'not_found');
  } finally {
    await api.close();
  }
});
