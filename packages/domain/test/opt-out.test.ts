import { optOutAction } from '../src/opt-out';

describe('optOutAction', () => {
  it.each(['STOP', 'stop', ' Stop\n', 'STOPALL', 'unsubscribe', 'CANCEL', 'end', 'QUIT', 'revoke', 'OptOut'])('reads %j as an opt-out', (text) => {
    expect(optOutAction(text)).toBe('opt_out');
  });

  it.each(['START', ' start ', 'Unstop'])('reads %j as an opt-in', (text) => {
    expect(optOutAction(text)).toBe('opt_in');
  });

  it.each(['please stop', 'STOP!', 'stopp', '', undefined, null, 'START NOW'])('ignores %j', (text) => {
    expect(optOutAction(text)).toBeNull();
  });
});
