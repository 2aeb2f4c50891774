import type { SecretKeyring } from '@switchboard/store';
import { resolveDatabaseUrl } from './connection';
import { resolveSecretsKeys } from './secrets-keys';

export interface CliConfig {
  databaseUrl: string;
  /** Seals the callback secret of an account the CLI creates (docs/webhooks.md, "Secrets at rest"). */
  secretsKeys: SecretKeyring;
}

/** The CLI's one reader of the environment; throws an Error that says what is missing. */
export function loadCliConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): CliConfig {
  return { databaseUrl: resolveDatabaseUrl(env, cwd), secretsKeys: resolveSecretsKeys(env, cwd) };
}
