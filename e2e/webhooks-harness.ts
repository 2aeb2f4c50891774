import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { Webhook } from 'standardwebhooks';
import { startService, type ServiceProcess } from '@switchboard/devstack';
import { createEventPublisher, EVENT_FANOUT_QUEUE } from '@switchboard/queues';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { getLogger } from '@switchboard/logger';
import { createApiKeysRepository, createEventsRepository, type Db } from '@switchboard/store';
import { createApiKeyAuthenticator } from '../services/api-gateway/src/auth/api-key.authenticator';
import { authenticate } from '../services/api-gateway/src/auth/authenticate.middleware';
import { createDependencyGuard } from '../services/api-gateway/src/http/dependency-guard';
import { errorMiddleware, notFoundHandler } from '../services/api-gateway/src/http/error.middleware';
import { jsonBody } from '../services/api-gateway/src/http/json-body.middleware';
import { requestIdMiddleware } from '../services/api-gateway/src/http/request-id.middleware';
import { createAccountRouter } from '../services/api-gateway/src/routes/account.route';
import { createEventsRouter } from '../services/api-gateway/src/routes/events.route';
import { createWebhooksRouter } from '../services/api-gateway/src/routes/webhooks.route';

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
    const all = readFileSync(this.logFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as ReceivedDelivery);
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

export function webhookDeliveryEnv(databaseUrl: string, prefix: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_RETRY_SCHEDULE_MS: '0,200,500,1000',
    STALLED_INTERVAL_MS: '1000',
    LOCK_DURATION_MS: '2000',
    OUTBOX_SWEEP_INTERVAL_MS: '200',
    OUTBOX_SWEEP_AGE_MS: '2000',
    ...extra,
  };
}

export async function startWebhookDelivery(env: Record<string, string>): Promise<ServiceProcess> {
  return startService('webhook-delivery', env);
}

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

/**
 * The webhook routes mounted the way the gateway mounts its routes (its authenticator, body parsing
 * and error middleware), in-process, so the API is exercised while the gateway's wiring is pending.
 */
export async function startWebhookApi(opts: { db: Db; prefix: string; policy: { allowHttp: boolean; allowPrivateNetworks: boolean; allowedHosts: string[] } }) {
  const logger = getLogger({ service: 'webhook-api-test', level: 'error' });
  const guard = createDependencyGuard(logger);
  const auth = [authenticate(createApiKeyAuthenticator({ findByHash: createApiKeysRepository(opts.db).findByHash, guard, ttlMs: 1000 }))];
  const connection = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  const eventFanoutQueue = new Queue(EVENT_FANOUT_QUEUE.name, { connection, prefix: opts.prefix });
  const app = express();
  app.use(requestIdMiddleware());
  app.use(createWebhooksRouter({ db: opts.db, guard, auth, jsonBody: jsonBody(256 * 1024), policy: opts.policy }));
  app.use(createEventsRouter({ db: opts.db, guard, auth, eventFanoutQueue }));
  app.use(createAccountRouter({ db: opts.db, guard, auth }));
  app.use(notFoundHandler());
  app.use(errorMiddleware(logger));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    request: async (key: string, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    close: async () => {
      await new Promise((r) => server.close(r));
      await eventFanoutQueue.close();
      connection.disconnect();
    },
  };
}
