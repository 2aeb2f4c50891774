import { createSmsReceiptPlanStore } from '../src/state/sms-receipt-plan.store';
import { parseValidityPeriod } from '../src/smpp/validity-period';

describe('sms receipt plans', () => {
  it('holds part receipts of a planned recipient and releases them in plan order, failing the chosen part', () => {
    const plans = createSmsReceiptPlanStore();
    const fired: string[] = [];
    plans.set('+447911124711', { order: [3, 1], failPart: 1 });
    for (const part of [1, 2, 3]) expect(plans.hold('+447911124711', part, (stat) => fired.push(`${part}:${stat}`))).toBe(true);
    expect(plans.hold('+447911124799', 1, () => fired.push('other'))).toBe(false);

    expect(plans.release('+447911124711', 2)).toBe(2);
    expect(fired).toEqual(['3:DELIVRD', '1:UNDELIV']);
    expect(plans.release('+447911124711', 5)).toBe(1);
    expect(fired).toEqual(['3:DELIVRD', '1:UNDELIV', '2:DELIVRD']);
    expect(plans.release('+447911124799', 1)).toBe(0);
  });
});

describe('parseValidityPeriod', () => {
  const now = Date.parse('2025-01-01T10:00:00.000Z');

  it('reads the relative format and what node-smpp decoded it to', () => {
    expect(parseValidityPeriod('000000000130000R', now)).toEqual({ kind: 'relative', seconds: 90 });
    expect(parseValidityPeriod('000001013000000R', now)).toEqual({ kind: 'relative', seconds: 86_400 + 5_400 });
    expect(parseValidityPeriod(new Date(now + 4_000), now)).toEqual({ kind: 'relative', seconds: 4 });
  });

  it('tells an absent value from a malformed one', () => {
    expect(parseValidityPeriod('', now)).toEqual({ kind: 'none' });
    expect(parseValidityPeriod(undefined, now)).toEqual({ kind: 'none' });
    expect(parseValidityPeriod('soon', now)).toEqual({ kind: 'invalid' });
    expect(parseValidityPeriod(new Date(Number.NaN), now)).toEqual({ kind: 'invalid' });
  });
});
