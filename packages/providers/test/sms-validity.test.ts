import { readDeliverSm } from '../src/sms/deliver-sm.reader';
import { createPartIdRegistry } from '../src/sms/part-id.registry';
import { relativeValidityPeriod } from '../src/sms/validity-period.format';

describe('relativeValidityPeriod (SMPP v3.4 §7.1.1)', () => {
  it('writes days, hours, minutes and seconds in the relative format', () => {
    expect(relativeValidityPeriod(5_400)).toBe('000000013000000R');
    expect(relativeValidityPeriod(90)).toBe('000000000130000R');
  });

  it('rounds up, keeps at least one second and caps at 99 days', () => {
    expect(relativeValidityPeriod(0.2)).toBe('000000000001000R');
    expect(relativeValidityPeriod(0)).toBe('000000000001000R');
    expect(relativeValidityPeriod(2 * 86_400 + 3 * 3_600 + 4 * 60 + 5)).toBe('000002030405000R');
    expect(relativeValidityPeriod(1e9)).toBe('000099235959000R');
  });
});

describe('part receipts', () => {
  it('names the part and the part count when the registry knows the message', () => {
    const registry = createPartIdRegistry({ retentionMs: 1e6, maxEntries: 10, now: () => 0 });
    registry.remember(['p1', 'p2', 'p3']);
    expect([registry.partsOf('p1'), registry.partsOf('p3'), registry.partsOf('other')]).toEqual([3, 3, 1]);
    const pdu = {
      esm_class: 4,
      receipted_message_id: 'p2',
      short_message: { message: 'id:p2 sub:001 dlvrd:001 submit date:2501011000 done date:2501011000 stat:DELIVRD err:000 text:' },
    };
    const content = readDeliverSm(pdu as never, '2025-01-01T10:00:00.000Z', registry.firstIdOf, registry.partsOf);
    expect(content).toMatchObject({ kind: 'receipt', receipt: { upstreamMessageId: 'p1', partId: 'p2', parts: 3, status: 'delivered' } });
  });

  it('leaves a one-part receipt without part fields', () => {
    const pdu = {
      esm_class: 4,
      receipted_message_id: 'solo',
      short_message: { message: 'id:solo sub:001 dlvrd:001 submit date:2501011000 done date:2501011000 stat:DELIVRD err:000 text:' },
    };
    const content = readDeliverSm(pdu as never, '2025-01-01T10:00:00.000Z', (id) => id);
    expect(content.kind === 'receipt' && 'partId' in content.receipt).toBe(false);
  });
});
