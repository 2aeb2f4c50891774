import fc from 'fast-check';
import { startGatewayHarness, textMessage, type GatewayHarness } from './support/gateway-harness';

let h: GatewayHarness;
let key: string;

beforeAll(async () => {
  h = await startGatewayHarness({ RATE_LIMIT_PER_SECOND: '1000000' });
  ({ key } = await h.key({ mode: 'test' }));
});

afterAll(async () => {
  await h?.close();
});

// fetch refuses header values with control characters, so header arbitraries stay printable.
const printable = fc.string({ unit: fc.constantFrom(...' !"#$%&\'()*+,-./0123456789:;<=>?@ABCXYZ[\\]^_`abcxyz{|}~'.split('')), maxLength: 60 });
const anyText = fc.string({ unit: 'grapheme', maxLength: 60 });

const path = fc.oneof(
  fc.constantFrom(
    '/v1/messages',
    '/v1/messages/',
    '/v1/providers/chat/webhook',
    '/v1/providers/rcs/events',
    '/healthz',
    '/readyz',
    '/docs',
    '/v1/openapi.json',
    '/metrics',
  ),
  anyText.map((id) => `/v1/messages/${encodeURIComponent(id)}`),
  anyText.map((id) => `/v1/messages/${encodeURIComponent(id)}/events`),
  fc.constantFrom('/v1/messages/%E0%A4%A', '/v1/messages/%', '/v1/messages/msg_01M830NRVQG7JH2MJ0JXDCTT8S', '/v1/messages/..%2F..%2Fetc'),
  printable.map((p) => `/${encodeURI(p)}`),
);

const query = fc.option(
  fc.dictionary(fc.constantFrom('limit', 'cursor', 'status', 'channel', 'recipient', 'hub.mode', 'hub.challenge', 'x', 'limit[]', '__proto__'), anyText, {
    maxKeys: 4,
  }),
  { nil: undefined },
);

/** Mostly a valid value, sometimes anything: so that some requests pass and the rest fail in one field. */
function mostly<T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: fc.oneof(anyText, fc.jsonValue()) });
}

const messageBase = fc.record({
  channel: mostly(fc.constantFrom('chat', 'sms', 'rcs', 'auto')),
  recipient: mostly(fc.constantFrom('+14155552671', '+447911123456', '+4915123456789')),
  content: mostly(
    fc.oneof(
      { weight: 3, arbitrary: fc.record({ text: fc.string({ minLength: 1, maxLength: 200, unit: 'grapheme' }) }) },
      { weight: 1, arbitrary: fc.record({ type: fc.constantFrom('text', 'image', 'interactive', 'location'), image: fc.object({ maxDepth: 2 }) }) },
    ),
  ),
});

const messageExtras = {
  template: fc.record({
    name: fc.constantFrom('otp', 'Bad Name'),
    language: fc.constantFrom('en', 'en_US', '?'),
    parameters: fc.array(fc.record({ type: fc.constant('text'), text: anyText })),
  }),
  callback_url: mostly(
    fc.oneof(fc.webUrl({ validSchemes: ['https'] }), fc.constantFrom('https://169.254.169.254/', 'https://[::1]/', 'http://example.com', 'https://10.0.0.1/x')),
  ),
  fallback: mostly(fc.uniqueArray(fc.constantFrom('chat', 'sms', 'rcs'), { minLength: 1 })),
  ttl_seconds: mostly(fc.integer({ min: -5, max: 200_000 })),
  fallback_timeout_seconds: mostly(fc.integer({ min: 0, max: 4_000 })),
  metadata: mostly(fc.dictionary(fc.string({ maxLength: 45 }), fc.string({ maxLength: 20 }), { maxKeys: 18 })),
  from: mostly(fc.constantFrom('+14155550100', '+14155550199')),
  surprise: fc.jsonValue(),
};

/** A message with a few optional extras, each mostly valid: requests pass, or fail in one or two places. */
const messageLike = fc
  .tuple(messageBase, fc.subarray(Object.keys(messageExtras), { maxLength: 2 }), fc.record(messageExtras))
  .map(([base, keys, extras]) => ({ ...base, ...Object.fromEntries(keys.map((k) => [k, (extras as Record<string, unknown>)[k]])) }));

const body = fc.option(
  fc.oneof(
    messageLike.map((m) => JSON.stringify(m)),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    anyText,
    fc.constantFrom('{', '[]', 'null', '"x"', '{"channel":"sms","recipient":"+14155552671","content":{"text":"hi"}}', JSON.stringify(textMessage())),
  ),
  { nil: undefined },
);

const headers = fc.record(
  {
    authorization: fc.oneof(
      fc.constant(`Bearer ${'KEY'}`),
      fc.constant('Bearer sk_test_0123456789abcdefABCDEF'),
      printable,
      printable.map((p) => `Bearer ${p}`),
    ),
    'content-type': fc.oneof(
      fc.constantFrom('application/json', 'application/json; charset=utf-8', 'application/json; charset=utf-16', 'text/plain', 'multipart/form-data'),
      printable,
    ),
    'idempotency-key': fc.oneof(fc.uuid({ version: 4 }), fc.uuid(), printable),
    'x-request-id': printable,
    'content-encoding': fc.constantFrom('gzip', 'identity'),
  },
  { requiredKeys: [] },
);

interface Scenario {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

function withQuery(p: string, q: Record<string, string> | undefined): string {
  return q ? `${p}?${new URLSearchParams(q).toString()}` : p;
}

/** Mostly well-authenticated requests, so the hostile part reaches validation, idempotency and the reads. */
const scenario: fc.Arbitrary<Scenario> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        messageLike.map((m) => JSON.stringify(m)),
        fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: fc.uuid({ version: 4 }) }, { weight: 1, arbitrary: printable }),
        fc.option(printable, { nil: undefined }),
        fc.oneof({ weight: 8, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8') }, { weight: 1, arbitrary: printable }),
      )
      .map(([payload, idem, requestId, contentType]) => {
        const hdrs: Record<string, string> = { authorization: 'Bearer KEY', 'content-type': contentType };
        if (idem !== undefined) hdrs['idempotency-key'] = idem;
        if (requestId !== undefined) hdrs['x-request-id'] = requestId;
        return { method: 'POST', url: '/v1/messages', headers: hdrs, body: payload };
      }),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(path, query)
      .map(([p, q]) => ({ method: 'GET', url: withQuery(p, q as Record<string, string>), headers: { authorization: 'Bearer KEY' } })),
  },
  {
    weight: 3,
    arbitrary: fc.tuple(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'), path, query, headers, body).map(([method, p, q, hdrs, payload]) => ({
      method,
      url: withQuery(p, q as Record<string, string>),
      headers: hdrs as Record<string, string>,
      body: method === 'GET' ? undefined : payload,
    })),
  },
);

describe('hostile input (docs/conventions.md#status-codes: no input produces a 5xx)', () => {
  it('never answers 5xx, and every 4xx is a problem document', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ method, url, headers: hdrs, body: payload }) => {
        const sent = { ...hdrs };
        if (sent.authorization === 'Bearer KEY') sent.authorization = `Bearer ${key}`;
        const res = await h.request(url, { method, headers: sent, body: payload });
        const text = await res.text();
        if (res.status >= 500) throw new Error(`${method} ${url} answered ${res.status}: ${text}`);
        expect(res.headers.get('x-request-id')).toBeTruthy();
        if (res.status >= 400) {
          expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
          const problem = JSON.parse(text) as { status: number; code: string; type: string };
          expect(problem.status).toBe(res.status);
          expect(problem.type).toBe(`/errors/${problem.code}`);
        }
      }),
      { numRuns: 300 },
    );
  });
});
