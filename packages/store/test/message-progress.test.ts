import { combinedPartStatus, furtherPartStatus, isHandedOff } from '../src/message-progress';

describe('combinedPartStatus', () => {
  const ids = ['a', 'b', 'c'];
  it('is delivered only when every part is', () => {
    expect(combinedPartStatus(ids, { c: 'delivered', a: 'delivered' })).toBe('sent');
    expect(combinedPartStatus(ids, { a: 'delivered', b: 'delivered', c: 'delivered' })).toBe('delivered');
  });
  it('fails with any failed part', () => {
    expect(combinedPartStatus(ids, { a: 'delivered', b: 'undelivered', c: 'delivered' })).toBe('undelivered');
  });
  it('keeps the furthest status of a part', () => {
    expect(furtherPartStatus('delivered', 'sent')).toBe('delivered');
    expect(furtherPartStatus(undefined, 'sent')).toBe('sent');
  });
});

describe('isHandedOff', () => {
  const attempt = (status: string, abandoned = false) => ({ status, abandoned_at: abandoned ? new Date() : null });
  it('is true for an ended message and for one an upstream holds', () => {
    expect(isHandedOff('undelivered', [])).toBe(true);
    expect(isHandedOff('sent', [attempt('sent')])).toBe(true);
  });
  it('is false while nothing was accepted, and once the only accepted attempt was abandoned', () => {
    expect(isHandedOff('sending', [attempt('sending')])).toBe(false);
    expect(isHandedOff('sent', [attempt('sent', true)])).toBe(false);
    expect(isHandedOff('sent', [attempt('delivered', true), attempt('sending')])).toBe(false);
  });
});
