import { PDU } from 'smpp';
import { readDeliverSm } from '../src/sms/deliver-sm.reader';
import { createMoConcatenationBuffer } from '../src/sms/mo-concatenation.buffer';
import { createPartIdRegistry } from '../src/sms/part-id.registry';

const identity = (id: string) => id;
const at = '2025-01-01T00:00:00.000Z';

/** Round-trips through bytes so node-smpp decodes fields exactly as it does off the wire. */
function wire(command: string, options: Record<string, unknown>): PDU {
  const pdu = new PDU(command, options);
  pdu.sequence_number = 1;
  return new PDU(pdu.toBuffer());
}

describe('readDeliverSm', () => {
  it('reads a receipt, preferring the receipted_message_id TLV and echoing user_message_reference', () => {
    const pdu = wire('deliver_sm', {
      source_addr: '15550001111',
      destination_addr: '15550002222',
      esm_class: 0x04,
      data_coding: 0,
      short_message: 'id:123 sub:001 dlvrd:001 submit date:2501011200 done date:2501011201 stat:DELIVRD err:000 text:Hello',
      receipted_message_id: 'abc-1',
      message_state: 2,
      user_message_reference: 513,
    });
    expect(readDeliverSm(pdu, at, identity)).toEqual({
      kind: 'receipt',
      receipt: {
        channel: 'sms',
        upstreamMessageId: 'abc-1',
        recipient: '+15550001111',
        status: 'delivered',
        carrierStatusCode: 'DELIVRD:000',
        occurredAt: at,
        attemptRef: 513,
      },
    });
  });

  it('maps later part ids to the first part id and reports errors', () => {
    const pdu = wire('deliver_sm', { source_addr: '1555', esm_class: 0x04, short_message: 'id:part-2 stat:UNDELIV err:001' });
    const content = readDeliverSm(pdu, at, (id) => (id === 'part-2' ? 'part-1' : id));
    expect(content).toMatchObject({
      kind: 'receipt',
      receipt: { upstreamMessageId: 'part-1', status: 'undelivered', carrierStatusCode: 'UNDELIV:001', errorCode: '001' },
    });
  });

  it('falls back to the message_state TLV without a readable text', () => {
    const pdu = wire('deliver_sm', { source_addr: '1555', esm_class: 0x04, short_message: 'garbled', receipted_message_id: 'r-9', message_state: 8 });
    expect(readDeliverSm(pdu, at, identity)).toMatchObject({
      kind: 'receipt',
      receipt: { upstreamMessageId: 'r-9', status: 'failed', carrierStatusCode: 'REJECTD' },
    });
  });

  it('reports an unreadable receipt', () => {
    const pdu = wire('deliver_sm', { source_addr: '1555', esm_class: 0x04, short_message: 'nothing useful' });
    expect(readDeliverSm(pdu, at, identity).kind).toBe('unreadable');
  });

  it('reads a mobile-originated GSM-7 text', () => {
    const pdu = wire('deliver_sm', {
      source_addr: '15550001111',
      destination_addr: '15550002222',
      esm_class: 0,
      data_coding: 0,
      short_message: Buffer.from([0x48, 0x69, 0x20, 0x1b, 0x65]),
    });
    expect(readDeliverSm(pdu, at, identity)).toEqual({ kind: 'mo', piece: { source: '+15550001111', destination: '+15550002222', text: 'Hi €' } });
  });

  it('reads a long text carried in message_payload', () => {
    const text = 'z'.repeat(300);
    const pdu = wire('deliver_sm', { source_addr: '1555', destination_addr: '1666', esm_class: 0, data_coding: 0, message_payload: text });
    expect(readDeliverSm(pdu, at, identity)).toEqual({ kind: 'mo', piece: { source: '+1555', destination: '+1666', text } });
  });

  it('reads a UCS-2 part with its concatenation UDH', () => {
    const udh = Buffer.from([0x05, 0x00, 0x03, 0x11, 0x02, 0x01]);
    const body = Buffer.from('Привет', 'utf16le').swap16();
    const pdu = wire('deliver_sm', {
      source_addr: '1555',
      destination_addr: '1666',
      esm_class: 0x40,
      data_coding: 8,
      short_message: Buffer.concat([udh, body]),
    });
    expect(readDeliverSm(pdu, at, identity)).toEqual({
      kind: 'mo',
      piece: { source: '+1555', destination: '+1666', text: 'Привет', concat: { reference: 0x11, total: 2, sequence: 1 } },
    });
  });
});

describe('MO concatenation buffer', () => {
  it('returns the text once all parts are in, in sequence order', () => {
    const buffer = createMoConcatenationBuffer({ timeoutMs: 1000, onDropped: jest.fn() });
    const piece = (sequence: number, text: string) => ({ source: '+1', destination: '+2', text, concat: { reference: 5, total: 3, sequence } });
    expect(buffer.add(piece(2, 'b'))).toBeUndefined();
    expect(buffer.add(piece(3, 'c'))).toBeUndefined();
    const completed = buffer.add(piece(1, 'a'));
    expect(completed?.text).toBe('abc');
    // Not yet confirmed: a redelivered last part completes it again.
    expect(buffer.add(piece(1, 'a'))?.text).toBe('abc');
    completed?.done();
    expect(buffer.add(piece(1, 'a'))).toBeUndefined();
    buffer.clear();
  });

  it('drops an incomplete set after the timeout', () => {
    jest.useFakeTimers();
    const onDropped = jest.fn();
    const buffer = createMoConcatenationBuffer({ timeoutMs: 1000, onDropped });
    buffer.add({ source: '+1', destination: '+2', text: 'a', concat: { reference: 1, total: 2, sequence: 1 } });
    jest.advanceTimersByTime(1001);
    expect(onDropped).toHaveBeenCalledWith(expect.any(String), 1, 2);
    jest.useRealTimers();
  });
});

describe('part id registry', () => {
  it('maps later parts to the first until they expire', () => {
    let now = 0;
    const registry = createPartIdRegistry({ retentionMs: 100, maxEntries: 10, now: () => now });
    registry.remember(['p1', 'p2', 'p3']);
    expect(registry.firstIdOf('p3')).toBe('p1');
    expect(registry.firstIdOf('p1')).toBe('p1');
    expect(registry.firstIdOf('other')).toBe('other');
    now = 101;
    expect(registry.firstIdOf('p3')).toBe('p3');
  });

  it('stays bounded', () => {
    const registry = createPartIdRegistry({ retentionMs: 1e9, maxEntries: 2, now: () => 0 });
    registry.remember(['a1', 'a2']);
    registry.remember(['b1', 'b2']);
    registry.remember(['c1', 'c2']);
    expect(registry.firstIdOf('a2')).toBe('a2');
    expect(registry.firstIdOf('c2')).toBe('c1');
  });
});
