import { ApiError } from '@switchboard/domain';
import { decodeCursor, encodeCursor, parseListQuery } from '../src/messages/list-query';

const id = 'msg_01M830NRVQG7JH2MJ0JXDCTT8S';

function fieldsOf(query: Record<string, unknown>): string[] {
  try {
    parseListQuery(query);
  } catch (error) {
    return ((error as ApiError).errors ?? []).map((e) => e.field);
  }
  return [];
}

describe('GET /v1/messages query', () => {
  it('defaults to 20 and passes valid filters through', () => {
    expect(parseListQuery({})).toEqual({ limit: 20 });
    expect(parseListQuery({ status: 'delivered', channel: 'auto', recipient: '+14155552671', limit: '100', cursor: encodeCursor(id) })).toEqual({
      status: 'delivered',
      channel: 'auto',
      recipient: '+14155552671',
      limit: 100,
      beforeId: id,
    });
  });

  it('reads an unencoded + in the recipient', () => {
    expect(parseListQuery({ recipient: ' 14155552671' }).recipient).toBe('+14155552671');
  });

  it('names each bad parameter as query:<name>', () => {
    expect(fieldsOf({ limit: '0' })).toEqual(['query:limit']);
    expect(fieldsOf({ limit: '101' })).toEqual(['query:limit']);
    expect(fieldsOf({ limit: '1e1' })).toEqual(['query:limit']);
    expect(fieldsOf({ limit: ['1', '2'] })).toEqual(['query:limit']);
    expect(fieldsOf({ status: 'lost', channel: 'fax', recipient: '12', cursor: 'nope!' })).toEqual([
      'query:status',
      'query:channel',
      'query:recipient',
      'query:cursor',
    ]);
  });

  it('round-trips cursors and refuses ones that do not decode to a message id', () => {
    expect(decodeCursor(encodeCursor(id))).toBe(id);
    expect(decodeCursor(encodeCursor('acc_01M830NRVQG7JH2MJ0JXDCTT8S'))).toBeNull();
    expect(decodeCursor('')).toBeNull();
  });
});
