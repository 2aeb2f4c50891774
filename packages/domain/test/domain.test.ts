import { canAdvance, e164Problem, isId, isValidE164, newId, renderAsText, channelPlan, idTimestamp } from '../src';

describe('identifiers', () => {
  it('are a prefix plus a ULID, time ordered', () => {
    const id = newId('msg');
    expect(isId('msg', id)).toBe(true);
    expect(isId('call', id)).toBe(false);
    expect(isId('msg', 'msg_123')).toBe(false);
    expect(isId('msg', `${id}x`)).toBe(false);
    expect(Math.abs(idTimestamp(id) - Date.now())).toBeLessThan(60_000);
  });
});

describe('E.164', () => {
  it.each([
    ['+447911123400', true],
    ['+14155550100', true],
    ['447911123400', false],
    ['+44 7911 123400', false],
    ['+1234', false],
    ['+999999999999', false],
    ['+4479111234001234', false],
  ])('%s valid: %s', (value, valid) => {
    expect(isValidE164(value)).toBe(valid);
  });

  it('says why a number is refused: not E.164 when malformed, not dialable for its region when well-formed', () => {
    expect(e164Problem('+14155550100')).toBeUndefined();
    expect(e164Problem('4155550100')).toMatch(/^is not an E\.164 number/);
    expect(e164Problem('+1234')).toMatch(/^is not an E\.164 number/);
    expect(e164Problem('+15551230001')).toBe('is not a dialable number for its region (US, +1)');
    expect(e164Problem('+999999999999')).toBe('is not a dialable number for any region');
  });
});

describe('message status', () => {
  it('only moves forward; a late delivery outranks undelivered, a late failure never beats delivered', () => {
    expect(canAdvance('queued', 'sending')).toBe(true);
    expect(canAdvance('read', 'delivered')).toBe(false);
    expect(canAdvance('undelivered', 'delivered')).toBe(true);
    expect(canAdvance('delivered', 'failed')).toBe(false);
  });
});

describe('rendering for text-only channels', () => {
  it('renders buttons as the body text then numbered options', () => {
    const text = renderAsText({
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'Pick one' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'a', title: 'Yes' } },
            { type: 'reply', reply: { id: 'b', title: 'No' } },
          ],
        },
      },
    });
    expect(text).toBe('Pick one\n1. Yes\n2. No');
  });

  it('fills a stored template body from either spec shape', () => {
    expect(renderAsText(undefined, { name: 'otp', language: 'en', parameters: [{ type: 'text', text: '1234' }] }, 'Your code is {{1}}')).toBe(
      'Your code is 1234',
    );
    expect(
      renderAsText(undefined, { name: 'otp', language: 'en', components: [{ type: 'body', parameters: [{ type: 'text', text: '99' }] }] }, 'Code {{1}}'),
    ).toBe('Code 99');
  });

  it('plans auto as chat, rcs, sms unless told otherwise', () => {
    expect(channelPlan('auto')).toEqual(['chat', 'rcs', 'sms']);
    expect(channelPlan('auto', ['sms'])).toEqual(['sms']);
    expect(channelPlan('rcs')).toEqual(['rcs']);
  });
});
