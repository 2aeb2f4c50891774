import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSecretCipher, LOCAL_SECRETS_KEYS_FILE, SecretKeyring, type SecretCipher } from '@switchboard/store';

/**
 * The local run's SECRETS_ENCRYPTION_KEYS: created under `stateDir` (`.switchboard/`) on the first
 * `npm start` and reused afterwards, so secrets sealed in the kept database still open. Readable by
 * the owner only; the CLI finds it there too.
 */
export function ensureLocalSecretsKey(stateDir: string): string {
  const file = join(stateDir, LOCAL_SECRETS_KEYS_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(stateDir, { recursive: true });
  const keys = SecretKeyring.generateText('local1');
  writeFileSync(file, `${keys}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return keys;
}

// One random key per test database in this process: the stack's services, createAccountKey and a
// test's own repositories all seal and open with it, and no two test databases share a key.
const testKeys = new Map<string, string>();

/** The SECRETS_ENCRYPTION_KEYS that startStack and createAccountKey use for `databaseUrl` unless told otherwise. */
export function testSecretsKeys(databaseUrl: string): string {
  let keys = testKeys.get(databaseUrl);
  if (!keys) {
    keys = SecretKeyring.generateText('test1');
    testKeys.set(databaseUrl, keys);
  }
  return keys;
}

/** A cipher over `keys` (default: the test key of `databaseUrl`), for tests that read or write secrets directly. */
export function testSecretCipher(databaseUrl: string, keys = testSecretsKeys(databaseUrl)): SecretCipher {
  return createSecretCipher(SecretKeyring.parse(keys));
}
