import { createHmac } from 'node:crypto';
import { Redis } from 'ioredis';
import { customerWindowCacheKey } from '@switchboard/shared-state';
import { createAccountKey, createTestDatabase, eventually, startStack, type Stack, type TestDatabase } from '@switchboard/devstack';
import { assertDocumentedResponse } from './openapi-responses';

/** The chat app secret the sandbox simulator signs with, and the gateway verifies by default. */
export const SANDBOX_CHAT_APP_SECRET = 'sandbox-chat-app-secret';

export interface ChatWorld {
  stack: Stack;
  database: TestDatabase;
  key: string;
  accountId: string;
  /** The account's chat number: the sender, and the number customers write to. */
  business: string;
  api: (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; body: any; headers: Headers }>;
  sim: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

async function call(url: string, method: string, body: unknown, headers: Record<string, string>) {
  const response = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    // Not JSON (the hub.challenge answer): keep the text.
  }
  return { status: response.status, body: parsed as any, headers: response.headers };
}

/** A real stack (carrier-sim, gateway, dispatcher as processes) on a fresh database, with one test key. */
export async function startChatWorld(opts: { prefix: string; business: string }): Promise<ChatWorld> {
  const database = await createTestDatabase();
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  // The simulator serves test media over plain http on 127.0.0.1: the target guard is opened for it.
  const local = { TARGET_ALLOW_HTTP: 'true' };
  const stack = await startStack({
    databaseUrl: database.url,
    redisUrl,
    prefix: `${opts.prefix}${Date.now().toString(36)}`,
    gatewayEnv: local,
    dispatcherEnv: { ...local, TARGET_ALLOW_PRIVATE_NETWORKS: 'true' },
  });
  const account = await createAccountKey(database.url, {
    account: opts.prefix,
    mode: 'test',
    numbers: [{ e164: opts.business, channels: ['chat', 'sms', 'rcs'] }],
  });
  const auth = { Authorization: `Bearer ${account.key}` };
  return {
    stack,
    database,
    key: account.key,
    accountId: account.accountId,
    business: opts.business,
    api: async (method, path, body, headers = {}) => {
      const answer = await call(`${stack.baseUrl}${path}`, method, body, { ...auth, ...headers });
      assertDocumentedResponse(method, path, answer.status, answer.headers.get('content-type'), answer.body);
      return answer;
    },
    sim: (method, path, body) => call(`${stack.simUrl}${path}`, method, body, {}),
    stop: async () => {
      await stack.stop();
      await database.drop();
    },
  };
}

/** Polls the message until `done` holds; no timing assertions, only conditions. */
export function messageUntil(world: ChatWorld, id: string, done: (m: any) => boolean, what: string) {
  return eventually(async () => (await world.api('GET', `/v1/messages/${id}`)).body, done, { what, timeoutMs: 30_000 });
}

export const isRead = (m: any) => m?.status === 'read';
export const isFinal = (m: any) => ['read', 'failed', 'undelivered'].includes(m?.status);

/** A customer writes to the business number through the simulator; resolves once the reply is stored. */
export async function customerWrites(world: ChatWorld, from: string, extra: Record<string, unknown> = { text: 'hello' }): Promise<any> {
  const pushed = await world.sim('POST', '/sim/inbound', { channel: 'chat', from, to: world.business, ...extra });
  if (pushed.status !== 202) throw new Error(`sim refused the inbound: ${JSON.stringify(pushed.body)}`);
  const list = await eventually(
    async () => (await world.api('GET', '/v1/inbound?limit=100')).body,
    (page: any) =>
      Array.isArray(page?.data) &&
      page.data.some((i: any) => i.from === from && (extra.text ? i.text === extra.text : i.reply?.id === (extra.reply as any)?.id)),
    { what: `inbound from ${from}` },
  );
  // The window's Redis key is written just after the reply is committed; wait for it too.
  const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
  try {
    const key = customerWindowCacheKey(world.stack.prefix, { accountId: world.accountId, sender: world.business, customer: from });
    await eventually(
      () => redis.exists(key),
      (n) => n === 1,
      { what: `window key ${key}` },
    );
  } finally {
    redis.disconnect();
  }
  return list.data.find((i: any) => i.from === from && (extra.text ? i.text === extra.text : i.reply?.id === (extra.reply as any)?.id));
}

/** Signs a Cloud API webhook body the way the upstream does. */
export function hubSignature(body: string, secret = SANDBOX_CHAT_APP_SECRET): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
