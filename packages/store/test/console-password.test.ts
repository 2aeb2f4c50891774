import { hashConsolePassword, verifyConsolePassword } from '../src/console-password';

describe('console passwords (scrypt)', () => {
  it('verifies the password it hashed and nothing else', async () => {
    const stored = await hashConsolePassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    await expect(verifyConsolePassword('correct horse battery', stored)).resolves.toBe(true);
    await expect(verifyConsolePassword('correct horse batterY', stored)).resolves.toBe(false);
  });

  it('salts every hash, so equal passwords do not share one', async () => {
    expect(await hashConsolePassword('same password!')).not.toBe(await hashConsolePassword('same password!'));
  });

  it('refuses a user without a password and a malformed stored value', async () => {
    await expect(verifyConsolePassword('anything', null)).resolves.toBe(false);
    await expect(verifyConsolePassword('anything', 'plain$text')).resolves.toBe(false);
  });
});
