import { ProviderError, type ProviderFailureKind } from '@switchboard/providers';
import { classifySendFailure, resendIsSafe } from '../src/dispatch/send-failure.policy';

const error = (kind: ProviderFailureKind, code = 'x', retryAfterMs?: number) => new ProviderError(kind, code, 'upstream said no', retryAfterMs);
const decide = (e: unknown, over: Partial<Parameters<typeof classifySendFailure>[0]> = {}) =>
  classifySendFailure({ error: e, channel: 'chat', nextChannel: null, attemptsExhausted: false, throttleDelayMs: 1000, ...over });

describe('classifySendFailure', () => {
  it.each([
    ['unreachable', 'recipient_unreachable'],
    ['window_closed', 'outside_customer_service_window'],
    ['permanent', 'rejected_by_upstream'],
    ['template_invalid', 'template_invalid'],
  ] as const)('%s with a channel left falls back', (kind, errorCode) => {
    expect(decide(error(kind, '131026'), { nextChannel: 'rcs' })).toEqual({
      action: 'fallback',
      nextChannel: 'rcs',
      errorCode,
      errorMessage: 'chat upstream answered 131026: upstream said no',
      upstreamCode: '131026',
    });
  });

  it.each([
    ['unreachable', 'recipient_unreachable'],
    ['window_closed', 'outside_customer_service_window'],
    ['permanent', 'rejected_by_upstream'],
    ['template_invalid', 'template_invalid'],
  ] as const)('%s on the last channel fails the message with %s', (kind, errorCode) => {
    expect(decide(error(kind, '132001'))).toMatchObject({ action: 'fail', errorCode, errorMessage: expect.stringContaining('132001') });
  });

  it('keeps our own refusal code for content the channel cannot carry', () => {
    expect(decide(error('permanent', 'content_not_supported_on_channel'), { channel: 'sms' })).toMatchObject({
      action: 'fail',
      errorCode: 'content_not_supported_on_channel',
    });
  });

  it.each(['media_too_large', 'media_type_not_allowed'])('keeps the media check code %s', (code) => {
    expect(decide(error('permanent', code), { nextChannel: 'sms' })).toMatchObject({ action: 'fallback', errorCode: code });
  });

  it('delays a throttled send by the upstream Retry-After', () => {
    expect(decide(error('throttled', '130429', 2500))).toMatchObject({ action: 'throttle', delayMs: 2500 });
  });

  it('delays a throttled send by the configured default when the upstream named none', () => {
    expect(decide(error('throttled', '0x58'), { channel: 'sms', throttleDelayMs: 750 })).toMatchObject({ action: 'throttle', delayMs: 750 });
  });

  it('throttling never falls back or fails, even with attempts exhausted', () => {
    expect(decide(error('throttled', '130429'), { attemptsExhausted: true, nextChannel: 'sms' })).toMatchObject({ action: 'throttle' });
  });

  it('retries a transient failure while attempts remain', () => {
    expect(decide(error('transient', '131000'))).toMatchObject({ action: 'retry', errorCode: 'upstream_unavailable', resendSafe: true });
  });

  it('falls back when transient failures exhausted the attempts', () => {
    expect(decide(error('transient', '131000'), { attemptsExhausted: true, nextChannel: 'sms' })).toMatchObject({
      action: 'fallback',
      nextChannel: 'sms',
      errorCode: 'upstream_unavailable',
    });
  });

  it('fails with upstream_unavailable when transient failures exhausted the last channel', () => {
    expect(decide(error('transient', '0x14'), { attemptsExhausted: true, channel: 'sms' })).toMatchObject({
      action: 'fail',
      errorCode: 'upstream_unavailable',
    });
  });

  it('treats an unexpected error as transient with an unknown outcome', () => {
    expect(decide(new TypeError('boom'))).toMatchObject({ action: 'retry', resendSafe: false, errorMessage: 'chat send failed: boom' });
  });
});

describe('resendIsSafe', () => {
  it('is always safe on rcs, which dedupes on our messageId', () => {
    expect(resendIsSafe('rcs', error('transient', 'ECONNABORTED'))).toBe(true);
    expect(resendIsSafe('rcs', new Error('anything'))).toBe(true);
  });

  it('is safe on rcs with several RBM upstreams only when nothing can have been sent', () => {
    expect(resendIsSafe('rcs', error('transient', 'ECONNABORTED'), { deduped: false })).toBe(false);
    expect(resendIsSafe('rcs', new Error('anything'), { deduped: false })).toBe(false);
    expect(resendIsSafe('rcs', error('transient', 'UNAVAILABLE'), { deduped: false })).toBe(true);
    expect(resendIsSafe('rcs', error('transient', 'ECONNREFUSED'), { deduped: false })).toBe(true);
    expect(decide(error('transient', 'ECONNABORTED'), { channel: 'rcs', rcsDeduped: false })).toMatchObject({ action: 'retry', resendSafe: false });
    expect(decide(error('transient', 'ECONNABORTED'), { channel: 'rcs' })).toMatchObject({ action: 'retry', resendSafe: true });
  });

  it.each(['131000', 'http_503', '0x14', 'not_bound', 'ECONNREFUSED'])('is safe on chat/sms after an answer or a refused connection (%s)', (code) => {
    expect(resendIsSafe('sms', error('transient', code))).toBe(true);
  });

  it.each(['ECONNABORTED', 'ECONNRESET', 'submit_timeout', 'connection_lost', 'network_error', 'malformed_response'])(
    'is not safe on chat/sms when no answer came back (%s)',
    (code) => {
      expect(resendIsSafe('chat', error('transient', code))).toBe(false);
    },
  );
});
