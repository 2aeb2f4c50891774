import { concatFromSar, concatFromUdh } from '../src/smpp/concat-parts';
import { formatReceiptText, receiptDate } from '../src/smpp/receipt-text';

describe('delivery receipt text', () => {
  it('formats dates as YYMMDDhhmm in UTC', () => {
    expect(receiptDate(new Date('2025-03-07T09:05:59.999Z'))).toBe('2503070905');
  });

  it('follows SMPP 3.4 Appendix B', () => {
    const text = formatReceiptText({
      messageId: 'abc123',
      submittedAt: new Date('2025-03-07T09:05:00Z'),
      doneAt: new Date('2025-03-07T09:06:00Z'),
      stat: 'DELIVRD',
      text: 'Your order is ready for pickup today',
    });
    expect(text).toBe('id:abc123 sub:001 dlvrd:001 submit date:2503070905 done date:2503070906 stat:DELIVRD err:000 text:Your order is ready ');
    expect(text).toMatch(/^id:(\S+) sub:(\d{3}) dlvrd:(\d{3}) submit date:(\d{10}) done date:(\d{10}) stat:(\w{7}) err:(\d{3}) text:/);
  });

  it('marks undelivered receipts and replaces characters GSM-7 would mangle', () => {
    const text = formatReceiptText({
      messageId: 'x',
      submittedAt: new Date(0),
      doneAt: new Date(0),
      stat: 'UNDELIV',
      err: 1,
      text: 'héllo 👋',
    });
    expect(text).toContain('dlvrd:000');
    expect(text).toContain('stat:UNDELIV err:001 text:h?llo ?');
  });
});

describe('concatenation info', () => {
  it('reads an 8-bit reference UDH element', () => {
    expect(concatFromUdh([Buffer.from([0x00, 0x03, 0x2a, 0x03, 0x02])])).toEqual({ reference: 0x2a, total: 3, seq: 2 });
  });

  it('reads a 16-bit reference UDH element among others', () => {
    const other = Buffer.from([0x24, 0x01, 0x01]);
    expect(concatFromUdh([other, Buffer.from([0x08, 0x04, 0x01, 0x02, 0x02, 0x01])])).toEqual({ reference: 0x0102, total: 2, seq: 1 });
  });

  it('ignores missing or inconsistent elements', () => {
    expect(concatFromUdh(undefined)).toBeNull();
    expect(concatFromUdh([Buffer.from([0x00, 0x03, 0x01, 0x02, 0x03])])).toBeNull();
  });

  it('reads the sar_* TLVs', () => {
    expect(concatFromSar({ sar_msg_ref_num: 7, sar_total_segments: 2, sar_segment_seqnum: 2 })).toEqual({ reference: 7, total: 2, seq: 2 });
    expect(concatFromSar({})).toBeNull();
  });
});
