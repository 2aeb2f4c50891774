import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCAL_SECRETS_KEYS_FILE, SecretKeyring } from '@switchboard/store';
import { ensureLocalSecretsKey, testSecretsKeys } from '../src/secrets-keys';

describe('local and test SECRETS_ENCRYPTION_KEYS', () => {
  it('creates the local key on the first run, readable by its owner only, and reuses it afterwards', () => {
    const stateDir = join(mkdtempSync(join(tmpdir(), 'sb-state-')), '.switchboard');
    const first = ensureLocalSecretsKey(stateDir);
    expect(SecretKeyring.parse(first).activeKid).toBe('local1');
    const file = join(stateDir, LOCAL_SECRETS_KEYS_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first);
    expect(ensureLocalSecretsKey(stateDir)).toBe(first);
  });

  it('gives each test database its own random key, the same one every time it is asked', () => {
    const a = testSecretsKeys('postgres://127.0.0.1/a');
    expect(testSecretsKeys('postgres://127.0.0.1/a')).toBe(a);
    expect(testSecretsKeys('postgres://127.0.0.1/b')).not.toBe(a);
  });
});
