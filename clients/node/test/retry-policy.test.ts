import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backoffMs, DEFAULT_RETRY, isRetryableStatus, parseRetryAfterMs, retryDelayMs } from '../src/retry-policy';
import { resolveRetryOptions } from '../src/retry-policy';

test('backoff doubles from the base up to the cap, with full jitter below that ceiling', () => {
  const policy = resolveRetryOptions({ baseDelayMs: 500, maxDelayMs: 3000 });
  assert.deepEqual(
    [1, 2, 3, 4, 5].map((n) => backoffMs(policy, n, () => 1)),
    [500, 1000, 2000, 3000, 3000],
  );
  assert.equal(
    backoffMs(policy, 3, () => 0),
    0,
  );
  assert.equal(
    backoffMs(policy, 2, () => 0.5),
    500,
  );
});

test('Retry-After wins over the backoff, is clamped, and reads seconds or an HTTP date', () => {
  const policy = resolveRetryOptions({ maxRetryAfterMs: 10_000 });
  assert.equal(
    retryDelayMs(policy, 1, '2', () => 1),
    2000,
  );
  assert.equal(
    retryDelayMs(policy, 1, '3600', () => 1),
    10_000,
  );
  assert.equal(
    retryDelayMs(policy, 1, null, () => 1),
    DEFAULT_RETRY.baseDelayMs,
  );
  assert.equal(
    retryDelayMs(policy, 1, 'soon', () => 1),
    DEFAULT_RETRY.baseDelayMs,
    'an unreadable value falls back to the backoff',
  );
  assert.equal(parseRetryAfterMs('Thu, 01 Jan 1970 00:00:30 GMT', 0), 30_000);
  assert.equal(parseRetryAfterMs('Thu, 01 Jan 1970 00:00:30 GMT', 60_000), 0, 'a date in the past means now');
  assert.equal(parseRetryAfterMs(' 0 '), 0);
  assert.equal(parseRetryAfterMs('-1'), undefined);
  assert.equal(parseRetryAfterMs(''), undefined);
  assert.equal(parseRetryAfterMs(undefined), undefined);
});

test('network-like statuses are retried; client errors are not, except a 409 for a key still in use', () => {
  for (const status of [408, 429, 500, 502, 503, 504]) assert.equal(isRetryableStatus(status, undefined), true, String(status));
  for (const status of [400, 401, 403, 404, 422, 501]) assert.equal(isRetryableStatus(status, undefined), false, String(status));
  assert.equal(isRetryableStatus(409, 'idempotency_key_in_use'), true);
  assert.equal(isRetryableStatus(409, 'template_already_exists'), false);
});

test('retry options are checked when the client is made', () => {
  assert.throws(() => resolveRetryOptions({ maxAttempts: 0 }), RangeError);
  assert.throws(() => resolveRetryOptions({ baseDelayMs: -1 }), RangeError);
  assert.equal(resolveRetryOptions({ maxAttempts: undefined }).maxAttempts, DEFAULT_RETRY.maxAttempts);
});
