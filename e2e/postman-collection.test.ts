import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { createDemoAccount, createTestDatabase, startStack, type Stack, type TestDatabase } from '@switchboard/devstack';

/*
 * The Postman collection (docs/api.md#postman): committed as generated from the document, and run whole by
 * newman against a real stack, every request answering 2xx and every script passing, given only what the
 * `npm start` banner prints: the base URL and the demo account's key. Everything else is the collection's own.
 */

const COLLECTION = join(__dirname, '..', 'clients', 'postman', 'switchboard.postman_collection.json');

interface NewmanSummary {
  run: {
    stats: {
      requests: { total: number; failed: number };
      assertions: { total: number; failed: number };
      prerequestScripts: { failed: number };
      testScripts: { failed: number };
    };
    failures: Array<{ error: { message: string; test?: string }; source?: { name?: string } }>;
    executions: Array<{ item: { name: string }; response?: { code: number } }>;
  };
}

let database: TestDatabase;
let stack: Stack;
let apiKey: string;

beforeAll(async () => {
  database = await createTestDatabase();
  stack = await startStack({
    databaseUrl: database.url,
    redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    prefix: `postman${randomBytes(4).toString('hex')}`,
    // The Voice folder places calls: the orchestrator dials carrier-sim's phones and stores the recording.
    workers: ['dispatcher', 'voice-orchestrator'],
  });
  // The demo account exactly as `npm start` creates it.
  ({ key: apiKey } = await createDemoAccount(database.url, { secretsKeys: stack.secretsKeys }));
});

afterAll(async () => {
  await stack?.stop();
  await database?.drop();
});

describe('the Postman collection', () => {
  it('is what generate.mjs makes from the document today', () => {
    const check = spawnSync(process.execPath, [join(__dirname, '..', 'clients', 'postman', 'generate.mjs'), '--check'], { encoding: 'utf8' });
    expect({ status: check.status, stderr: check.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it('runs whole with newman against the stack, every request passing', async () => {
    const collection = JSON.parse(readFileSync(COLLECTION, 'utf8')) as { item: Array<{ item: unknown[] }> };
    const requests = collection.item.reduce((n, folder) => n + folder.item.length, 0);
    // newman ships no types: required with the one function used.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- newman has no types; the one function used is typed here
    const newman = require('newman') as { run: (options: unknown, done: (error: Error | null, summary: NewmanSummary) => void) => void };
    const summary = await promisify(newman.run)({
      collection,
      envVar: [
        { key: 'baseUrl', value: stack.baseUrl },
        { key: 'apiKey', value: apiKey },
      ],
      reporters: [],
      timeoutRequest: 30_000,
    });
    const failures = summary.run.failures.map((f) => `${f.source?.name ?? '?'}: ${f.error.test ?? ''} ${f.error.message}`);
    expect(failures).toEqual([]);
    const answered = new Set(summary.run.executions.map((e) => e.item.name));
    expect(answered.size).toBe(requests);
    // A request the collection retries while the stack catches up counts by its last answer.
    const last = new Map(summary.run.executions.map((e) => [e.item.name, e.response?.code ?? 0]));
    expect([...last].filter(([, code]) => code < 200 || code > 299)).toEqual([]);
    expect(summary.run.stats.assertions.failed).toBe(0);
  });
});
