import { parseSmppReceiptText, statToStatus } from '../src/sms/smpp-receipt.parser';

describe('parseSmppReceiptText', () => {
  it('reads the standard receipt', () => {
    expect(parseSmppReceiptText('id:0123456789 sub:001 dlvrd:001 submit date:2501011200 done date:2501011201 stat:DELIVRD err:000 text:Hello world')).toEqual({
      id: '0123456789',
      stat: 'DELIVRD',
      err: '000',
      submitDate: '2501011200',
      doneDate: '2501011201',
    });
  });

  it('reads lower case field names and values', () => {
    expect(parseSmppReceiptText('id:abc123 sub:001 dlvrd:000 submit date:2501011200 done date:2501011300 stat:undeliv err:001 text:')).toMatchObject({
      id: 'abc123',
      stat: 'UNDELIV',
      err: '001',
    });
    expect(parseSmppReceiptText('ID:abc STAT:DELIVRD ERR:000')).toMatchObject({ id: 'abc', stat: 'DELIVRD', err: '000' });
  });

  it('reads fields in any order and with missing fields', () => {
    expect(parseSmppReceiptText('stat:EXPIRED id:X-9')).toEqual({ id: 'X-9', stat: 'EXPIRED', err: '' });
    expect(parseSmppReceiptText('err:045 stat:REJECTD id:77')).toEqual({ id: '77', stat: 'REJECTD', err: '045' });
  });

  it('tolerates extra spaces', () => {
    expect(parseSmppReceiptText('  id: 42   sub:001  submit  date: 2501011200   done date:2501011201  stat: DELIVRD   err: 000  ')).toEqual({
      id: '42',
      stat: 'DELIVRD',
      err: '000',
      submitDate: '2501011200',
      doneDate: '2501011201',
    });
  });

  it('stops at text:, whatever the text contains', () => {
    expect(parseSmppReceiptText('id:1 stat:DELIVRD err:000 text:stat:UNDELIV id:2')).toMatchObject({ id: '1', stat: 'DELIVRD' });
  });

  it('returns null without an id or a stat', () => {
    expect(parseSmppReceiptText('')).toBeNull();
    expect(parseSmppReceiptText('hello, this is a normal message')).toBeNull();
    expect(parseSmppReceiptText('id:1 sub:001')).toBeNull();
    expect(parseSmppReceiptText('stat:DELIVRD')).toBeNull();
  });
});

describe('statToStatus', () => {
  it.each([
    ['DELIVRD', 'delivered'],
    ['UNDELIV', 'undelivered'],
    ['EXPIRED', 'undelivered'],
    ['DELETED', 'undelivered'],
    ['UNKNOWN', 'undelivered'],
    ['REJECTD', 'failed'],
    ['ENROUTE', 'sent'],
    ['ACCEPTD', 'sent'],
    ['bogus', undefined],
  ])('%s → %s', (stat, status) => {
    expect(statToStatus(stat)).toBe(status);
  });
});
