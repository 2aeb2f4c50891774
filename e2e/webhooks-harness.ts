import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { Webhook } from 'standardwebhooks';
import { createAccountKey, createTestDatabase, startStack, testSecretCipher, type ServiceName, type Stack, type TestDatabase } from '@switchboard/devstack';
import { createEventPublisher, EVENT_FANOUT_QUEUE } from '@switchboard/queues';
import { createDb, createEventsRepository, type Db, type SecretCipher } from '@switchboard/store';
import { assertDocumentedResponse } from './support/openapi-responses';

/** One delivery as the receiver process saw it. */
export interface ReceivedDelivery {
  path: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  at: number;
}

export interface Behaviour {
  status: number;
  delayMs?: number;
  retryAfter?: string;
  /** Answers used first, in order, before the steady behaviour. */
  next?: Array<{ status: number; retryAfter?: string; delayMs?: number }>;
}

/** The receiver as a real process on loopback, restartable on the same port with the same log. */
export class ReceiverProcess {
  private child: ChildProcess | null = null;
  readonly logFile = join(mkdtempSync(join(tmpdir(), 'sb-receiver-')), 'deliveries.jsonl');
  port = 0;

  async start(): Promise<void> {
    const child = spawn(process.execPath, [join(__dirname, 'webhooks-receiver.mjs')], {
      env: { ...process.env, PORT: String(this.port), LOG_FILE: this.logFile },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    this.child = child;
    this.port = await new Promise<number>((resolve, reject) => {
      child.stdout?.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString()).port));
      child.once('exit', () => reject(new Error('receiver exited')));
    });
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async behave(path: string, behaviour: Behaviour): Promise<void> {
    await fetch(`http://127.0.0.1:${this.port}/__control${path}`, { method: 'PUT', body: JSON.stringify(behaviour) });
  }

  received(path?: string): ReceivedDelivery[] {
    if (!existsSync(this.logFile)) return [];
    const all = readFileSync(this.logFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as ReceivedDelivery);
    return path ? all.filter((d) => d.path === path) : all;
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    await new Promise((r) => {
      child.once('exit', r);
      child.kill('SIGKILL');
    });
  }
}

/** Throws unless the delivery verifies with `secret` through the npm standardwebhooks library. */
export function verify(secret: string, d: ReceivedDelivery): { id: string; type: string; data: Record<string, unknown> } {
  return new Webhook(secret).verify(d.body, d.headers) as { id: string; type: string; data: Record<string, unknown> };
}

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The producer side of the outbox: what the dispatcher does after each commit. */
export function createTestPublisher(db: Db, prefix: string) {
  const connection = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue(EVENT_FANOUT_QUEUE.name, { connection, prefix });
  return {
    publisher: createEventPublisher({ queue, outbox: createEventsRepository(db) }),
    close: async () => {
      await queue.close();
      connection.disconnect();
    },
  };
}

export interface WebhookStackOptions {
  /** BullMQ prefix of this test file's stack. */
  prefix: string;
  /** Environment of every service, over the fast test schedule below. */
  env?: Record<string, string>;
  /** The gateway's own environment, e.g. a stricter target policy than the workers'. */
  gatewayEnv?: Record<string, string>;
  /** @defaultValue ['webhook-delivery']: the tests produce events themselves, through the store. */
  workers?: ServiceName[];
}

export interface WebhookStack {
  stack: Stack;
  database: TestDatabase;
  /** The test's own connection to the stack's database. */
  db: Db;
  /** Seals and opens secrets with the stack's key, as its services do. */
  secrets: SecretCipher;
  publish: ReturnType<typeof createTestPublisher>;
  /** A key of a new (or existing) account of this stack. */
  keyFor(account: string, scopes?: string[]): ReturnType<typeof createAccountKey>;
  /** One API call to the stack's gateway. */
  request(key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

/**
 * The stack through devstack's startStack, like every e2e test: carrier-sim, the gateway and the
 * workers as real processes on a fresh database, with retry timings short enough for tests.
 */
export async function startWebhookStack(opts: WebhookStackOptions): Promise<WebhookStack> {
  const database = await createTestDatabase();
  let stack: Stack;
  try {
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: TEST_REDIS_URL,
      prefix: opts.prefix,
      workers: opts.workers ?? ['webhook-delivery'],
      env: {
        TARGET_ALLOW_HTTP: 'true',
        TARGET_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_RETRY_SCHEDULE_MS: '0,200,500,1000',
        LOCK_DURATION_MS: '2000',
        ...opts.env,
      },
      gatewayEnv: opts.gatewayEnv,
    });
  } catch (error) {
    await database.drop();
    throw error;
  }
  const started = stack;
  const db = createDb({ url: database.url, poolSize: 4 });
  const publish = createTestPublisher(db, opts.prefix);
  return {
    stack: started,
    database,
    db,
    secrets: testSecretCipher(database.url, started.secretsKeys),
    publish,
    keyFor: (account, scopes = ['*']) => createAccountKey(database.url, { account, scopes, secretsKeys: started.secretsKeys }),
    request: async (key, method, path, body) => {
      const res = await fetch(`${started.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      const parsed = text ? JSON.parse(text) : null;
      assertDocumentedResponse(method, path, res.status, res.headers.get('content-type'), parsed);
      return { status: res.status, body: parsed };
    },
    stop: async () => {
      await started.stop();
      await publish.close();
      await db.close();
      await database.drop();
    },
  };
}
