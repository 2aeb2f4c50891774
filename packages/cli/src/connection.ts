import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The CLI reaches the same store as the running local stack: `local.json` that `npm start` writes in its
 * state folder (SWITCHBOARD_HOME, default `.switchboard`), unless DATABASE_URL and REDIS_URL are set
 * (docs/authentication.md#the-cli).
 */
export function resolveDatabaseUrl(env: NodeJS.ProcessEnv, cwd: string): string {
  if (env.DATABASE_URL && env.REDIS_URL) return env.DATABASE_URL;
  const local = join(localStateDir(env, cwd), 'local.json');
  if (existsSync(local)) {
    const parsed = JSON.parse(readFileSync(local, 'utf8')) as { database_url?: string };
    if (parsed.database_url) return parsed.database_url;
  }
  if (env.DATABASE_URL) return env.DATABASE_URL;
  throw new Error(
    `no local stack found: no ${local}; run \`npm start\` first, and give this shell the SWITCHBOARD_HOME that \`npm start\` prints, or set DATABASE_URL and REDIS_URL`,
  );
}

/** The state folder `npm start` keeps: SWITCHBOARD_HOME, default `.switchboard` in the working directory. */
export function localStateDir(env: NodeJS.ProcessEnv, cwd: string): string {
  return env.SWITCHBOARD_HOME ? resolve(cwd, env.SWITCHBOARD_HOME) : join(cwd, '.switchboard');
}

/** The gateway URL of the running local stack (`base_url` in local.json), for console sign-in links; undefined without one. */
export function localBaseUrl(env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  const local = join(localStateDir(env, cwd), 'local.json');
  if (!existsSync(local)) return undefined;
  return (JSON.parse(readFileSync(local, 'utf8')) as { base_url?: string }).base_url;
}
