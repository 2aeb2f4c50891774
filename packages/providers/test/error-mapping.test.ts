import { ProviderError } from '../src/provider-error';
import { mapChatFailure } from '../src/chat/chat-error.mapper';
import { isAlreadyExists, mapRcsFailure } from '../src/rcs/rcs-error.mapper';
import { mapSubmitStatus } from '../src/sms/smpp-status.mapper';

function graphError(code: number) {
  return {
    error: { message: `error ${code}`, type: 'OAuthException', code, error_data: { messaging_product: 'whatsapp', details: 'details' }, fbtrace_id: 'A1' },
  };
}

describe('chat error mapping', () => {
  it.each([
    [131026, 400, 'unreachable'],
    [131047, 400, 'window_closed'],
    [130429, 429, 'throttled'],
    [131056, 429, 'throttled'],
    [80007, 400, 'throttled'],
    [132000, 400, 'template_invalid'],
    [132001, 400, 'template_invalid'],
    [132005, 400, 'template_invalid'],
    [132007, 400, 'template_invalid'],
    [132012, 400, 'template_invalid'],
    [132015, 400, 'template_invalid'],
    [132016, 400, 'template_invalid'],
    [131000, 500, 'transient'],
    [131016, 503, 'transient'],
    [1, 400, 'transient'],
    [2, 400, 'transient'],
    [131009, 400, 'permanent'],
    [100, 400, 'permanent'],
    [999999, 503, 'transient'],
  ])('code %i on HTTP %i is %s', (code, status, kind) => {
    const error = mapChatFailure({ status, body: graphError(code), message: '' });
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.kind).toBe(kind);
    expect(error.upstreamCode).toBe(String(code));
  });

  it('keeps the message and details of the Graph error', () => {
    expect(mapChatFailure({ status: 400, body: graphError(131026), message: '' }).message).toBe('error 131026: details');
  });

  it('reads Retry-After on throttling, in seconds or as a date', () => {
    expect(mapChatFailure({ status: 429, body: graphError(130429), retryAfter: '7', message: '' }).retryAfterMs).toBe(7000);
    const date = new Date(Date.now() + 60_000).toUTCString();
    const fromDate = mapChatFailure({ status: 429, body: graphError(130429), retryAfter: date, message: '' }).retryAfterMs ?? 0;
    expect(fromDate).toBeGreaterThan(55_000);
    expect(fromDate).toBeLessThanOrEqual(60_000);
    expect(mapChatFailure({ status: 429, body: graphError(130429), message: '' }).retryAfterMs).toBeUndefined();
  });

  it.each([
    [500, 'transient'],
    [502, 'transient'],
    [408, 'transient'],
    [429, 'throttled'],
    [400, 'permanent'],
    [401, 'permanent'],
    [404, 'permanent'],
  ])('HTTP %i without a Graph error body is %s', (status, kind) => {
    const error = mapChatFailure({ status, body: '<html>oops</html>', message: '' });
    expect(error.kind).toBe(kind);
    expect(error.upstreamCode).toBe(`http_${status}`);
  });

  it('treats timeouts and network errors as transient', () => {
    const error = mapChatFailure({ networkCode: 'ECONNABORTED', message: 'timeout of 100ms exceeded' });
    expect(error.kind).toBe('transient');
    expect(error.upstreamCode).toBe('ECONNABORTED');
  });
});

describe('rcs error mapping', () => {
  const google = (code: number, status: string) => ({ error: { code, status, message: status.toLowerCase() } });
  it.each([
    [404, 'NOT_FOUND', 'unreachable'],
    [429, 'RESOURCE_EXHAUSTED', 'throttled'],
    [400, 'INVALID_ARGUMENT', 'permanent'],
    [403, 'PERMISSION_DENIED', 'permanent'],
    [401, 'UNAUTHENTICATED', 'permanent'],
    [500, 'INTERNAL', 'transient'],
    [503, 'UNAVAILABLE', 'transient'],
    [409, 'ABORTED', 'transient'],
  ])('HTTP %i %s is %s', (status, googleStatus, kind) => {
    const error = mapRcsFailure({ status, body: google(status, googleStatus), message: '' });
    expect(error.kind).toBe(kind);
    expect(error.upstreamCode).toBe(googleStatus);
  });

  it('reads Retry-After on 429', () => {
    expect(mapRcsFailure({ status: 429, body: google(429, 'RESOURCE_EXHAUSTED'), retryAfter: '2', message: '' }).retryAfterMs).toBe(2000);
  });

  it('treats network failures as transient', () => {
    expect(mapRcsFailure({ networkCode: 'ECONNREFUSED', message: 'refused' }).kind).toBe('transient');
  });

  it('recognises ALREADY_EXISTS only on 409', () => {
    expect(isAlreadyExists(409, google(409, 'ALREADY_EXISTS'))).toBe(true);
    expect(isAlreadyExists(409, undefined)).toBe(true);
    expect(isAlreadyExists(409, google(409, 'ABORTED'))).toBe(false);
    expect(isAlreadyExists(400, google(400, 'ALREADY_EXISTS'))).toBe(false);
  });
});

describe('smpp submit_sm_resp mapping', () => {
  it.each([
    [0x58, 'throttled', '0x58'],
    [0x14, 'transient', '0x14'],
    [0x08, 'transient', '0x08'],
    [0x0b, 'permanent', '0x0B'],
    [0x45, 'permanent', '0x45'],
    [0x0a, 'permanent', '0x0A'],
    [0x400, 'permanent', '0x400'],
  ])('command_status %i is %s (%s)', (status, kind, code) => {
    const error = mapSubmitStatus(status);
    expect(error.kind).toBe(kind);
    expect(error.upstreamCode).toBe(code);
  });
});
