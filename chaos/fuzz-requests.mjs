// Fuzzed requests for the gateway, built with fast-check from the OpenAPI document (so a new route is fuzzed
// without touching this file): every method on every path, with fuzzed ids, query strings, headers and bodies.
// Bodies start from a valid request and break one field, so that most of them reach the validators.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const fc = require('fast-check');
const { buildOpenApiDocument } = require('../packages/schemas/dist/index.js');

/** One valid body per writing route: mutations of these reach the field validators rather than the first type check. */
const VALID_BODIES = {
  'post /v1/messages': { channel: 'sms', recipient: '+447911123410', content: { text: 'fuzz' } },
  'post /v1/messages/chat': { to: '+447911123410', type: 'text', text: { body: 'fuzz' } },
  'post /v1/webhooks': { url: 'http://127.0.0.1:9/hook', events: ['message.sent'] },
  'post /v1/templates': { name: 'fuzz_template', language: 'en', category: 'utility', components: [{ type: 'body', text: 'Hello {{1}}' }] },
  'post /v1/suppressions': { recipient: '+447911123410', channel: 'sms' },
  'patch /v1/account': { fallback_timeout_seconds: 60 },
  'post /v1/providers/chat/webhook': { object: 'whatsapp_business_account', entry: [{ id: '1', changes: [{ field: 'messages', value: {} }] }] },
  'post /v1/providers/rcs/events': { message: { data: 'e30=', messageId: '1' } },
};

/** encodeURIComponent throws on lone surrogates; their raw UTF-8 bytes are fuzzed as '%ED%A0%80' below. */
const enc = (s) => encodeURIComponent(s.toWellFormed());

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 });
const anyText = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), printable);
const tricky = fc.constantFrom(
  '',
  ' ',
  '0',
  '-1',
  '1e309',
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
  '%',
  '%zz',
  '%00',
  '%ff%fe',
  '..',
  '../..',
  '\u0000',
  '\ud800',
  'msg_',
  'msg_01ARZ3NDEKTSV4RRFFQ69G5FAV',
  'x'.repeat(5000),
  '__proto__',
  'constructor',
);
const text = fc.oneof(anyText, tricky);
/** A value of any JSON type, including deep nesting and very large numbers. */
const jsonish = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  tricky,
  fc.double(),
  fc.integer(),
  fc.constant(Number.MAX_SAFE_INTEGER * 1000),
  fc.constant(null),
  fc.integer({ min: 1, max: 200 }).map((depth) => JSON.parse('['.repeat(depth) + ']'.repeat(depth))),
);

/** An id for a path parameter: URL-encoded text, or raw characters that are valid in a path but odd. */
const pathId = fc.oneof(text.map(enc), fc.constantFrom('%', '%zz', '%2e%2e', 'a%2Fb', ';x', 'a b'.replace(' ', '%20'), '%E0%A4%A', '%ED%A0%80', '%C0%AF'));

const queryValue = fc.oneof(text, fc.integer().map(String), fc.constantFrom('10', '100', '101', '0', '-5', '2.5', '1e3'));
/** Query strings with the route's own names, unknown names, repeated names and qs's bracket syntax (objects, arrays). */
function queryFor(names) {
  const name = fc.oneof(
    fc.constantFrom(...(names.length ? names : ['limit'])),
    fc.constantFrom('limit', 'cursor', 'x'),
    printable.filter((s) => s.length > 0),
  );
  const pair = fc.tuple(name, fc.constantFrom('', '[]', '[a]', '[0]', '[__proto__]'), queryValue).map(([n, suffix, v]) => `${enc(n)}${suffix}=${enc(v)}`);
  return fc.array(pair, { maxLength: 5 }).map((pairs) => (pairs.length ? `?${pairs.join('&')}` : ''));
}

/** A valid body with one field replaced, removed or added, or one nested object replaced by another JSON value. */
function mutated(valid) {
  const keys = Object.keys(valid);
  return fc.oneof(
    fc.tuple(fc.constantFrom(...keys), jsonish).map(([k, v]) => ({ ...valid, [k]: v })),
    fc.constantFrom(...keys).map((k) => Object.fromEntries(Object.entries(valid).filter(([key]) => key !== k))),
    fc.tuple(fc.oneof(printable, fc.constantFrom('__proto__', 'constructor')), jsonish).map(([k, v]) => JSON.parse(JSON.stringify({ ...valid, [k]: v }))),
    fc.constant(valid),
  );
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'application/merge-patch+json',
  'application/problem+json',
  'json',
  undefined,
];

function bodyFor(valid) {
  const json = valid ? mutated(valid) : jsonish;
  return fc.oneof(
    { weight: 6, arbitrary: json.map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: text },
    { weight: 1, arbitrary: fc.constantFrom('{', '{"a":', '[1,2', '{"channel":"sms",}', '\u0000', '{"a":1}{"b":2}', ' '.repeat(10)) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

function headersFor(key) {
  const authorization = fc.oneof(
    { weight: 8, arbitrary: fc.constant(`Bearer ${key}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        undefined,
        'Bearer',
        'Bearer ',
        `Basic ${key}`,
        `bearer ${key}`,
        `Bearer ${key}x`,
        `Bearer ${key.slice(0, -1)}`,
        'Bearer sb_test_',
      ),
    },
    { weight: 1, arbitrary: printable.map((s) => `Bearer ${s}`) },
  );
  return fc
    .record(
      {
        authorization,
        'content-type': fc.constantFrom(...CONTENT_TYPES),
        'idempotency-key': fc.oneof(fc.constant(undefined), printable, fc.constant('k'.repeat(300))),
        'content-encoding': fc.oneof(
          { weight: 9, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'bogus') },
        ),
        accept: fc.constantFrom(undefined, 'application/json', 'text/html', '*/*', 'application/xml'),
        'x-request-id': fc.oneof(fc.constant(undefined), printable),
        'x-hub-signature-256': fc.oneof(fc.constant(undefined), printable, fc.constant(`sha256=${'0'.repeat(64)}`)),
        'x-goog-signature': fc.oneof(fc.constant(undefined), printable),
      },
      { requiredKeys: [] },
    )
    .map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)));
}

/** The routes of the OpenAPI document as { template, methods, queryNames }. */
function routes() {
  const doc = buildOpenApiDocument();
  return Object.entries(doc.paths).map(([template, ops]) => ({
    template,
    methods: Object.keys(ops),
    queryNames: Object.values(ops).flatMap((op) => (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name)),
  }));
}

/** `count` requests, reproducible from `seed`: { method, path, headers, body }. */
export function fuzzedRequests({ key, count, seed }) {
  const all = routes();
  const request = fc
    .constantFrom(...all)
    .chain((route) =>
      fc.record({
        // Mostly the route's own methods, sometimes any method (405/404 paths).
        method: fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...route.methods) },
          { weight: 1, arbitrary: fc.constantFrom('get', 'post', 'put', 'patch', 'delete', 'options', 'head') },
        ),
        path: fc.tuple(pathId, pathId).map(([id, other]) => route.template.replace('{id}', id).replace(/\{[^}]+\}/g, other)),
        query: queryFor(route.queryNames),
        headers: headersFor(key),
        template: fc.constant(route.template),
      }),
    )
    .chain((r) =>
      bodyFor(VALID_BODIES[`${r.method} ${r.template}`]).map((body) => ({
        ...r,
        path: `${r.path}${r.query}`,
        method: r.method.toUpperCase(),
        body: ['GET', 'HEAD'].includes(r.method.toUpperCase()) ? undefined : body,
      })),
    );
  return fc.sample(request, { numRuns: count, seed });
}
