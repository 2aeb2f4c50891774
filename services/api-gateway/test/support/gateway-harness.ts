import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import {
  createAccountKey,
  createTestDatabase,
  startService,
  testSecretsKeys,
  type AccountKeyOptions,
  type ServiceProcess,
  type TestDatabase,
} from '@switchboard/devstack';
import { MESSAGE_SEND_QUEUE, PROVIDER_CALLBACKS_QUEUE } from '@switchboard/queues';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface GatewayHarness {
  url: string;
  prefix: string;
  database: TestDatabase;
  gateway: ServiceProcess;
  redis: Redis;
  messageQueue: Queue;
  callbackQueue: Queue;
  key(options: Omit<AccountKeyOptions, 'account'> & { account?: string }): Promise<{ key: string; keyId: string; accountId: string }>;
  /** fetch against the gateway; `json` is sent as an application/json body. */
  request(path: string, init?: RequestInit & { json?: unknown; key?: string }): Promise<Response>;
  close(): Promise<void>;
}

export interface GatewayHarnessOptions {
  /** The URL the gateway is given for its database, e.g. through a proxy; the test itself uses the direct one. */
  gatewayDatabaseUrl?: (url: string) => string;
}

/**
 * One gateway process per test file, with its own database and its own Redis key prefix, all removed
 * again by `close()`.
 */
export async function startGatewayHarness(
  env: Record<string, string> = {},
  redisUrl = TEST_REDIS_URL,
  { gatewayDatabaseUrl = (url) => url }: GatewayHarnessOptions = {},
): Promise<GatewayHarness> {
  const prefix = `gwtest-${randomBytes(4).toString('hex')}`;
  const database = await createTestDatabase();
  let gateway: ServiceProcess;
  try {
    gateway = await startService('api-gateway', {
      DATABASE_URL: gatewayDatabaseUrl(database.url),
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: prefix,
      LOG_LEVEL: 'warn',
      DB_POOL_SIZE: '4',
      SECRETS_ENCRYPTION_KEYS: testSecretsKeys(database.url),
      ...env,
    });
  } catch (error) {
    await database.drop();
    throw error;
  }
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  const messageQueue = new Queue(MESSAGE_SEND_QUEUE.name, { connection: redis, prefix });
  const callbackQueue = new Queue(PROVIDER_CALLBACKS_QUEUE.name, { connection: redis, prefix });
  let accounts = 0;

  return {
    url: gateway.url,
    prefix,
    database,
    gateway,
    redis,
    messageQueue,
    callbackQueue,
    key: (options) => createAccountKey(database.url, { account: `acct-${prefix}-${++accounts}`, ...options }),
    request: (path, init = {}) => {
      const { json, key, headers, ...rest } = init;
      const merged = new Headers(headers);
      if (key) merged.set('authorization', `Bearer ${key}`);
      if (json !== undefined && !merged.has('content-type')) merged.set('content-type', 'application/json');
      return fetch(`${gateway.url}${path}`, {
        ...rest,
        method: rest.method ?? (json !== undefined ? 'POST' : 'GET'),
        headers: merged,
        body: json !== undefined ? JSON.stringify(json) : rest.body,
        signal: rest.signal ?? AbortSignal.timeout(15_000),
      });
    },
    close: async () => {
      await gateway.stop();
      await Promise.all([messageQueue.close(), callbackQueue.close()]);
      await deleteKeys(redis, `${prefix}:*`);
      redis.disconnect();
      await database.drop();
    },
  };
}

export async function deleteKeys(redis: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

export const VALID_RECIPIENT = '+14155552671';

export function textMessage(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { channel: 'sms', recipient: VALID_RECIPIENT, content: { text: 'Your code is 1234' }, ...overrides };
}

export async function problemOf(res: Response): Promise<{ status: number; contentType: string | null; body: Record<string, unknown> }> {
  return { status: res.status, contentType: res.headers.get('content-type'), body: (await res.json()) as Record<string, unknown> };
}
