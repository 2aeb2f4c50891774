import type { Request } from 'express';
import { readCookie } from '../src/console/session-cookie';

const request = (cookie?: string) => ({ headers: cookie === undefined ? {} : { cookie } }) as Request;

describe('readCookie', () => {
  it('finds the named cookie among others', () => {
    expect(readCookie(request('a=1; sb_console_session=abc_DEF-123; b=2'), 'sb_console_session')).toBe('abc_DEF-123');
  });

  it('ignores a missing header, other names and values that cannot be one of our tokens', () => {
    expect(readCookie(request(), 'sb_console_session')).toBeUndefined();
    expect(readCookie(request('xsb_console_session=abc'), 'sb_console_session')).toBeUndefined();
    expect(readCookie(request('sb_console_session=a%20b'), 'sb_console_session')).toBeUndefined();
    expect(readCookie(request(`sb_console_session=${'a'.repeat(129)}`), 'sb_console_session')).toBeUndefined();
    expect(readCookie(request('garbage;;='), 'sb_console_session')).toBeUndefined();
  });
});
