import { ApiError } from '@switchboard/domain';
import { canonicalJson, requestFingerprint } from '../src/idempotency/request-fingerprint';
import { readIdempotencyKey } from '../src/idempotency/idempotency-key';

describe('idempotency fingerprint', () => {
  it('ignores key order and whitespace, so a retry of the same request matches', () => {
    const a = JSON.parse('{"channel":"sms","recipient":"+14155552671","content":{"text":"hi"},"metadata":{"b":"2","a":"1"}}');
    const b = JSON.parse('{ "metadata": {"a":"1", "b":"2"}, "content": {"text": "hi"}, "recipient": "+14155552671", "channel": "sms" }');
    expect(requestFingerprint(a)).toBe(requestFingerprint(b));
    expect(canonicalJson(a)).toBe('{"channel":"sms","content":{"text":"hi"},"metadata":{"a":"1","b":"2"},"recipient":"+14155552671"}');
  });

  it('differs when any value differs, including array order and types', () => {
    const base = { channel: 'auto', fallback: ['sms', 'chat'], ttl_seconds: 60 };
    expect(requestFingerprint(base)).not.toBe(requestFingerprint({ ...base, fallback: ['chat', 'sms'] }));
    expect(requestFingerprint(base)).not.toBe(requestFingerprint({ ...base, ttl_seconds: '60' }));
    expect(requestFingerprint(base)).toMatch(/^[0-9a-f]{64}$/);
  });
});

/** The first, map/filter/join version: the loop version must keep every fingerprint already stored. */
function referenceCanonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(referenceCanonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${referenceCanonicalJson(record[k])}`).join(',')}}`;
}

describe('canonical JSON', () => {
  it('is byte for byte what the first version wrote, so stored keys still match after an upgrade', () => {
    const bodies: unknown[] = [
      {
        channel: 'sms',
        messages: [
          { recipient: '+447911123400', content: { text: 'hé "quoted" \\ \u2028' } },
          { metadata: { z: 1, a: [1, null, 'x', { b: false, a: 1.5e-7 }] } },
        ],
      },
      { 'k\n"ey': 'v', '': [], nested: { deeper: { deepest: [[], {}] } }, undef: undefined, arr: [undefined, 0, -0, true] },
      [],
      'text',
      42,
      null,
    ];
    // Many distinct keys, beyond the quoted-key cache's bound.
    bodies.push(Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`key-${i}-"${i % 7}"`, i % 3 === 0 ? undefined : i])));
    for (const body of bodies) expect(canonicalJson(body)).toBe(referenceCanonicalJson(body));
  });
});

describe('Idempotency-Key header', () => {
  it('is optional and normalised to lower case', () => {
    expect(readIdempotencyKey(undefined)).toBeNull();
    expect(readIdempotencyKey('6F1C8A3E-2B7D-4C1E-9A5F-0D3B2C1E4F5A')).toBe('6f1c8a3e-2b7d-4c1e-9a5f-0d3b2c1e4f5a');
  });

  it.each(['', 'abc', '6f1c8a3e-2b7d-1c1e-9a5f-0d3b2c1e4f5a', '6f1c8a3e-2b7d-4c1e-7a5f-0d3b2c1e4f5a', '6f1c8a3e2b7d4c1e9a5f0d3b2c1e4f5a'])(
    'refuses %j with 400 invalid_idempotency_key naming the header',
    (value) => {
      expect.assertions(3);
      try {
        readIdempotencyKey(value);
      } catch (error) {
        expect(error).toBeInstanceOf(ApiError);
        expect((error as ApiError).code).toBe('invalid_idempotency_key');
        expect((error as ApiError).errors).toEqual([{ field: 'header:Idempotency-Key', message: 'must be a UUID v4' }]);
      }
    },
  );
});
