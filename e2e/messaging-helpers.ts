import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { SANDBOX_WINDOW_ACCOUNT } from '@switchboard/domain';
import { customerWindowCacheKey } from '@switchboard/shared-state';
import { createAccountKey, createTestDatabase, eventually, startStack, type Stack, type StackOptions, type TestDatabase } from '@switchboard/devstack';
import { assertDocumentedResponse } from './support/openapi-responses';

/** The sender test keys fall back to when the account provisioned none (SANDBOX_SENDER). */
export const SANDBOX_SENDER = '+14155550100';

export interface MessageView {
  id: string;
  status: string;
  channel: string;
  channel_used: string | null;
  cost_units: number;
  carrier_status_code: string | null;
  sent_at: string | null;
  delivered_at: string | null;
  read_at: string | null;
  error: { code: string; message: string } | null;
  attempts: Array<{ channel: string; status: string; error_code: string | null; at: string }>;
}

export interface SimSend {
  channel: string;
  to: string;
  text: string | null;
  client_ref: string | null;
  outcome: 'accepted' | 'rejected' | 'throttled';
  error_code: string | null;
  parts: number;
}

export interface MessagingStack {
  stack: Stack;
  key: string;
  /** A test key of another account on the same stack. */
  keyOf(account: string): Promise<string>;
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  send(body: Record<string, unknown>): Promise<{ id: string; cost_units: number }>;
  message(id: string): Promise<MessageView>;
  waitForMessage(id: string, done: (m: MessageView) => boolean, what: string, timeoutMs?: number): Promise<MessageView>;
  simSends(filter?: Record<string, string>): Promise<SimSend[]>;
  simInbound(body: Record<string, unknown>): Promise<void>;
  stop(): Promise<void>;
}

/** A whole stack (carrier-sim, gateway, dispatcher) on a fresh database and a private queue prefix, with a test key. */
export async function startMessagingStack(
  dispatcherEnv: Record<string, string> = {},
  stackOptions: Pick<StackOptions, 'sandboxUpstreamFields' | 'simBehaviour'> = {},
): Promise<MessagingStack> {
  const database: TestDatabase = await createTestDatabase();
  let stack: Stack | undefined;
  try {
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      prefix: `e2emsg${randomBytes(4).toString('hex')}`,
      dispatcherEnv,
      ...stackOptions,
    });
  } catch (error) {
    await database.drop();
    throw error;
  }
  const started = stack;
  const { key } = await createAccountKey(database.url, { account: 'messaging-e2e', mode: 'test', scopes: ['*'] });

  async function api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await fetch(`${started.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : undefined;
    assertDocumentedResponse(method, path, res.status, res.headers.get('content-type'), parsed);
    return { status: res.status, body: parsed as T };
  }

  async function message(id: string): Promise<MessageView> {
    const res = await api<MessageView>('GET', `/v1/messages/${id}`);
    if (res.status !== 200) throw new Error(`GET /v1/messages/${id} answered ${res.status}`);
    return res.body;
  }

  return {
    stack: started,
    key,
    keyOf: async (account) => (await createAccountKey(database.url, { account, mode: 'test', scopes: ['*'] })).key,
    api,
    async send(body) {
      const res = await api<{ id: string; cost_units: number }>('POST', '/v1/messages', body);
      if (res.status !== 202) throw new Error(`POST /v1/messages answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body;
    },
    message,
    waitForMessage: (id, done, what, timeoutMs = 20_000) => eventually(() => message(id), done, { what: `${id} ${what}`, timeoutMs, intervalMs: 150 }),
    async simSends(filter = {}) {
      const res = await fetch(`${started.simUrl}/sim/sends?${new URLSearchParams(filter).toString()}`);
      return ((await res.json()) as { data: SimSend[] }).data;
    },
    async simInbound(body) {
      const res = await fetch(`${started.simUrl}/sim/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`POST /sim/inbound answered ${res.status}: ${await res.text()}`);
      if (body.channel !== 'chat' || body.to !== SANDBOX_SENDER) return;
      // The gateway refuses free-form chat until the dispatcher has opened the customer service window.
      const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
      try {
        const window = customerWindowCacheKey(started.prefix, { accountId: SANDBOX_WINDOW_ACCOUNT, sender: SANDBOX_SENDER, customer: String(body.from) });
        await eventually(
          () => redis.exists(window),
          (n) => n === 1,
          { what: `chat window for ${String(body.from)}` },
        );
      } finally {
        redis.disconnect();
      }
    },
    async stop() {
      await started.stop();
      await database.drop();
    },
  };
}

export const reached =
  (...statuses: string[]) =>
  (m: MessageView) =>
    statuses.includes(m.status);
