import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_SECRETS_KEYS_FILE, SecretKeyring, SECRETS_KEYS_FORMAT } from '@switchboard/store';
import { localStateDir } from './connection';

/**
 * The keys that seal webhook signing secrets: SECRETS_ENCRYPTION_KEYS, else the key `npm start` keeps
 * in its state folder (docs/configuration.md). Accounts created by the CLI get a sealed callback secret.
 */
export function resolveSecretsKeys(env: NodeJS.ProcessEnv, cwd: string): SecretKeyring {
  const local = join(localStateDir(env, cwd), LOCAL_SECRETS_KEYS_FILE);
  const text = env.SECRETS_ENCRYPTION_KEYS || (existsSync(local) ? readFileSync(local, 'utf8').trim() : '');
  if (!text) throw new Error(`SECRETS_ENCRYPTION_KEYS is required: ${SECRETS_KEYS_FORMAT}; or run \`npm start\` once, which creates a local key`);
  try {
    return SecretKeyring.parse(text);
  } catch (error) {
    throw new Error(`SECRETS_ENCRYPTION_KEYS is invalid: ${(error as Error).message} (${SECRETS_KEYS_FORMAT})`);
  }
}
