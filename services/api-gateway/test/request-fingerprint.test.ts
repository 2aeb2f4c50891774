import { canonicalJson, requestFingerprint } from '../src/idempotency/request-fingerprint';
import { readIdempotencyKey } from '../src/idempotency/idempotency-key';
import { ApiError } from '@switchboard/domain';

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
