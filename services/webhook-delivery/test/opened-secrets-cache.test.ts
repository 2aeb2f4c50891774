import { createSecretCipher, SecretKeyring } from '@switchboard/store';
import { withOpenedSecretsCache } from '../src/opened-secrets-cache';

const cipher = createSecretCipher(SecretKeyring.parse(SecretKeyring.generateText('k1')));
const at = (rowId: string) => ({ table: 'webhook_endpoints', column: 'secret', rowId });

describe('opened secrets cache', () => {
  it('opens a sealed value to the same secret again', () => {
    const cached = withOpenedSecretsCache(cipher);
    const sealed = cipher.seal('whsec_one', at('whk_1'));
    expect(cached.open(sealed, at('whk_1'))).toBe('whsec_one');
    expect(cached.open(sealed, at('whk_1'))).toBe('whsec_one');
  });

  it('opens a rotated secret (a newly sealed value) to the new secret, not the cached old one', () => {
    const cached = withOpenedSecretsCache(cipher);
    expect(cached.open(cipher.seal('whsec_old', at('whk_1')), at('whk_1'))).toBe('whsec_old');
    expect(cached.open(cipher.seal('whsec_new', at('whk_1')), at('whk_1'))).toBe('whsec_new');
  });

  it('still refuses a value moved to another row after it opened in its own', () => {
    const cached = withOpenedSecretsCache(cipher);
    const sealed = cipher.seal('whsec_one', at('whk_1'));
    expect(cached.open(sealed, at('whk_1'))).toBe('whsec_one');
    expect(() => cached.open(sealed, at('whk_2'))).toThrow(/does not authenticate/);
  });

  it('keeps at most the given number of values and still opens the ones it dropped', () => {
    const cached = withOpenedSecretsCache(cipher, 2);
    const values = ['a', 'b', 'c'].map((s) => ({ s, sealed: cipher.seal(`whsec_${s}`, at(`whk_${s}`)), at: at(`whk_${s}`) }));
    for (const v of values) expect(cached.open(v.sealed, v.at)).toBe(`whsec_${v.s}`);
    for (const v of values) expect(cached.open(v.sealed, v.at)).toBe(`whsec_${v.s}`);
  });
});
