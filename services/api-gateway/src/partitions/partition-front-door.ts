import type { RequestHandler } from 'express';
import { partitionOf } from '@switchboard/queues';
import type { ApiKeyAuthenticator } from '../auth/api-key.authenticator';
import { CONSOLE_POLICY } from '../console/console-policy';
import { readCookie } from '../console/session-cookie';

export interface PartitionFrontDoorDeps {
  /** One whole app per queue partition, in partition order; each answers everything, under its partition's keys. */
  apps: readonly RequestHandler[];
  /** The same authenticator (and cache of keys) the apps use: a key is looked up once per request. */
  authenticator: ApiKeyAuthenticator;
  /** The account of a console session cookie, or undefined. */
  consoleAccount: (sessionToken: string) => Promise<string | undefined>;
}

/**
 * Hands each request to the app of its account's partition (docs/storage-layout.md#redis-keys-and-cluster): the
 * account of an API key, or of a console session. A request with neither (health, metrics, provider callbacks,
 * sign-in, and every one whose key is refused) goes to partition 0's app, which answers it as any app would,
 * the 401 included; such requests touch only keys under the shared tag or none at all.
 */
export function partitionFrontDoor({ apps, authenticator, consoleAccount }: PartitionFrontDoorDeps): RequestHandler {
  const accountOf = async (authorization: string | undefined, session: string | undefined): Promise<string | undefined> => {
    if (authorization) return (await authenticator(authorization)).accountId;
    return session ? consoleAccount(session) : undefined;
  };
  return (req, res, next) => {
    accountOf(req.headers.authorization, readCookie(req, CONSOLE_POLICY.sessionCookie)).then(
      (account) => apps[account === undefined ? 0 : partitionOf(account, apps.length)](req, res, next),
      // The app authenticates again and answers the refusal (401, or 503 with the store down) in its own way.
      () => apps[0](req, res, next),
    );
  };
}
