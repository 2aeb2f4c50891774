import { randomBytes } from 'node:crypto';
import { createSecretCipher, SecretKeyring } from '../src/secret-cipher';

const key = () => randomBytes(32).toString('base64');
const at = { table: 'webhook_endpoints', column: 'secret', rowId: 'whk_1' };
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

describe('SecretKeyring.parse', () => {
  it('takes the first key as active and keeps the others for opening', () => {
    const ring = SecretKeyring.parse(`new:${key()}, old:${key()}`);
    expect(ring.activeKid).toBe('new');
    expect(ring.kids).toEqual(['new', 'old']);
  });

  it.each([
    ['', 'expected'],
    ['nokey', 'key id'],
    [':abc', 'key id'],
    ['bad kid:AAAA', 'key id'],
    [`k1:${randomBytes(16).toString('base64')}`, 'exactly 32 bytes'],
    [`k1:${key()},k1:${key()}`, 'twice'],
  ])('refuses %j, saying why', (text, why) => {
    expect(() => SecretKeyring.parse(text)).toThrow(why);
  });

  it('never puts key material in its errors or its JSON', () => {
    const material = randomBytes(16).toString('base64');
    expect(() => SecretKeyring.parse(`k1:${material}`)).toThrow(expect.objectContaining({ message: expect.not.stringContaining(material) }));
    const good = key();
    expect(JSON.stringify({ keys: SecretKeyring.parse(`k1:${good}`) })).toBe('{"keys":{"active_kid":"k1","kids":["k1"]}}');
  });

  it('generates keys in its own format', () => {
    expect(SecretKeyring.parse(SecretKeyring.generateText('gen')).activeKid).toBe('gen');
  });
});

describe('createSecretCipher', () => {
  const ring = SecretKeyring.parse(`k2:${key()},k1:${key()}`);
  const cipher = createSecretCipher(ring);

  it('seals as v1.<kid>.<iv>.<ciphertext+tag> in base64url, without the plaintext, and opens it again', () => {
    const sealed = cipher.seal(SECRET, at);
    expect(sealed).toMatch(/^v1\.k2\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('whsec_');
    expect(cipher.open(sealed, at)).toBe(SECRET);
  });

  it('uses a fresh iv for every seal', () => {
    expect(cipher.seal(SECRET, at)).not.toBe(cipher.seal(SECRET, at));
  });

  it.each([
    ['another row', { ...at, rowId: 'whk_2' }],
    ['another column', { ...at, column: 'previous_secret' }],
    ['another table', { ...at, table: 'accounts' }],
  ])('refuses a value moved to %s', (_what, elsewhere) => {
    expect(() => cipher.open(cipher.seal(SECRET, at), elsewhere)).toThrow('does not authenticate');
  });

  it('refuses a tampered ciphertext', () => {
    const [v, kid, iv, body] = cipher.seal(SECRET, at).split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    expect(() => cipher.open([v, kid, iv, flipped.toString('base64url')].join('.'), at)).toThrow('does not authenticate');
  });

  it('opens values sealed under an older key it still holds, and marks them for re-sealing', () => {
    const older = createSecretCipher(SecretKeyring.parse(`k1:${ring.key('k1')!.toString('base64')}`));
    const sealed = older.seal(SECRET, at);
    expect(cipher.open(sealed, at)).toBe(SECRET);
    expect(cipher.needsReseal(sealed)).toBe(true);
    expect(cipher.needsReseal(cipher.seal(SECRET, at))).toBe(false);
    expect(cipher.needsReseal(SECRET)).toBe(true);
  });

  it('names the missing key id when a value was sealed under a key it does not hold', () => {
    const stranger = createSecretCipher(SecretKeyring.parse(`gone:${key()}`));
    expect(() => cipher.open(stranger.seal(SECRET, at), at)).toThrow('key "gone"');
  });

  it('refuses plaintext and malformed values', () => {
    expect(() => cipher.open(SECRET, at)).toThrow('not a sealed secret');
    expect(() => cipher.open('v1.k2.AAAA.AAAA', at)).toThrow('malformed');
  });
});
