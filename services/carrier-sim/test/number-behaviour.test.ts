import { behaviourFor, lastTwoDigits, reportPlan, sendVerdict, THROTTLES_BEFORE_ACCEPT } from '../src/behaviour/number-behaviour';

describe('number behaviour table', () => {
  it('reads the last two digits whatever the formatting', () => {
    expect(lastTwoDigits('+15550000103')).toBe('03');
    expect(lastTwoDigits('15550000103')).toBe('03');
    expect(lastTwoDigits('+1 555 000 01-05')).toBe('05');
  });

  it.each([
    ['chat', '+15550000100', 'accept'],
    ['chat', '+15550000101', 'not_chat_user'],
    ['rcs', '+15550000101', 'accept'],
    ['sms', '+15550000101', 'accept'],
    ['rcs', '+15550000102', 'not_rcs_capable'],
    ['chat', '+15550000102', 'accept'],
    ['sms', '+15550000102', 'accept'],
    ['chat', '+15550000103', 'reject'],
    ['rcs', '+15550000103', 'reject'],
    ['sms', '+15550000103', 'reject'],
    ['chat', '+15550000104', 'accept'],
    ['chat', '+15550000106', 'accept'],
    ['sms', '+15550000199', 'accept'],
  ] as const)('%s to %s: %s', (channel, recipient, verdict) => {
    expect(sendVerdict(channel, recipient, 0)).toBe(verdict);
  });

  it('throttles an 05 number three times, then accepts, on every channel', () => {
    for (const channel of ['chat', 'rcs', 'sms'] as const) {
      const verdicts = [0, 1, 2, 3].map((n) => sendVerdict(channel, '+15550000105', n));
      expect(verdicts).toEqual(['throttle', 'throttle', 'throttle', 'accept']);
    }
    expect(THROTTLES_BEFORE_ACCEPT).toBe(3);
  });

  it('plans status reports by suffix', () => {
    expect(reportPlan('chat', '+15550000100')).toEqual({ sent: true, delivered: true, read: true });
    expect(reportPlan('chat', '+15550000104')).toEqual({ sent: true, delivered: false, read: false });
    expect(reportPlan('chat', '+15550000106')).toEqual({ sent: true, delivered: true, read: false });
    expect(reportPlan('rcs', '+15550000100')).toEqual({ sent: false, delivered: true, read: true });
    expect(reportPlan('sms', '+15550000100')).toEqual({ sent: false, delivered: true, read: false });
    expect(reportPlan('sms', '+15550000104').delivered).toBe(false);
  });

  it('describes 02 as not RCS-capable only', () => {
    expect(behaviourFor('+15550000102')).toMatchObject({ notRcsCapable: true, notChatUser: false, rejectedPermanently: false });
  });
});
