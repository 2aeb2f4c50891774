import { connect } from 'node:net';
import { problemOf, startGatewayHarness, type GatewayHarness } from './support/gateway-harness';

// Requests refused by node's HTTP parser, and known paths asked with another method, are answered as
// problem documents like every other refusal (docs/errors.md).
let h: GatewayHarness;

beforeAll(async () => {
  h = await startGatewayHarness();
});

afterAll(async () => {
  await h?.close();
});

interface RawAnswer {
  statusLine: string;
  headers: Record<string, string>;
  body: string;
}

/** Writes raw bytes and reads until the server closes the connection. */
function rawRequest(bytes: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(h.gateway.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error('the server kept the connection open')));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString();
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ statusLine, headers, body: rest.join('\r\n\r\n') });
    });
    socket.write(bytes);
  });
}

function expectProblem(answer: RawAnswer, status: number, code: string): void {
  expect(answer.statusLine).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
  expect(answer.headers['content-type']).toBe('application/problem+json');
  expect(answer.headers.connection).toBe('close');
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
  const problem = JSON.parse(answer.body) as Record<string, unknown>;
  expect(problem).toMatchObject({ status, code, type: `/errors/${code}`, request_id: answer.headers['x-request-id'] });
}

describe('requests node refuses before express sees them', () => {
  it('answers over-long headers with 431 request_header_fields_too_large', async () => {
    const answer = await rawRequest(`GET /v1/messages HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
    expectProblem(answer, 431, 'request_header_fields_too_large');
  });

  it('answers a malformed request line or header with 400 bad_request', async () => {
    for (const bytes of [
      'NOT A REQUEST\r\n\r\n',
      'GET /v1/messages HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n',
      'GET /v1/messages HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd',
    ]) {
      expectProblem(await rawRequest(bytes), 400, 'bad_request');
    }
  });
});

describe('a known path with a method it does not answer', () => {
  it('answers 405 method_not_allowed with Allow listing the methods of the registered routes', async () => {
    const cases: Array<[string, string, string]> = [
      ['DELETE', '/v1/messages', 'GET, HEAD, POST'],
      ['PUT', '/v1/messages/msg_01M830NRVQG7JH2MJ0JXDCTT8S', 'DELETE, GET, HEAD'],
      ['PATCH', '/v1/templates/tpl_01M830NRVQG7JH2MJ0JXDCTT8S', 'DELETE, GET, HEAD'],
      ['GET', '/v1/webhooks/we_01M830NRVQG7JH2MJ0JXDCTT8S/rotate-secret', 'POST'],
      ['POST', '/healthz', 'GET, HEAD'],
    ];
    for (const [method, path, allow] of cases) {
      const res = await h.request(path, { method });
      expect({ method, path, allow: res.headers.get('allow') }).toEqual({ method, path, allow });
      const problem = await problemOf(res);
      expect(problem).toMatchObject({ status: 405, body: { code: 'method_not_allowed', type: '/errors/method_not_allowed' } });
      expect(problem.contentType).toMatch(/^application\/problem\+json/);
    }
  });

  it('still answers 404 for a path no route has', async () => {
    const res = await h.request('/v1/nothing-here', { method: 'DELETE' });
    expect(res.headers.get('allow')).toBeNull();
    expect((await problemOf(res)).body.code).toBe('not_found');
  });
});
