import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { SANDBOX_WINDOW_ACCOUNT } from '@switchboard/domain';
import { customerWindowCacheKey } from '@switchboard/shared-state';
import { createAccountKey, createTestDatabase, ensureSdkTools, eventually, startStack, type Stack, type TestDatabase } from '@switchboard/devstack';
import { SANDBOX_SENDER } from '../messaging-helpers';
import { ReceiverProcess } from '../webhooks-harness';
import { startFaultProxy, type FaultProxy } from './fault-proxy';

const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The customer whose chat window the harness opens, so that the SDK suites can send free-form chat to them. */
export const CHAT_CUSTOMER = '+447911123400';
/** The account's voice number, the caller id of the SDK suites' calls. */
export const VOICE_FROM = '+447911123499';

/** Everything an SDK suite talks to: the stack, a fault proxy in front of its gateway, and a webhook receiver. */
export interface SdkWorld {
  stack: Stack;
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** A real stack (carrier-sim, gateway, dispatcher, webhook-delivery) allowed to deliver webhooks to loopback http. */
export async function startSdkWorld(): Promise<SdkWorld> {
  const database: TestDatabase = await createTestDatabase();
  let stack: Stack;
  try {
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: TEST_REDIS_URL,
      prefix: `e2esdk${randomBytes(4).toString('hex')}`,
      // The voice orchestrator places the SDK suites' calls to the simulator's phones (docs/voice.md#carrier-simulator).
      workers: ['dispatcher', 'webhook-delivery', 'voice-orchestrator'],
      env: { TARGET_ALLOW_HTTP: 'true', TARGET_ALLOW_PRIVATE_NETWORKS: 'true' },
    });
  } catch (error) {
    await database.drop();
    throw error;
  }
  const started = stack;
  const receiver = new ReceiverProcess();
  let proxy: FaultProxy | undefined;
  const stop = async () => {
    await proxy?.close();
    await receiver.kill();
    await started.stop();
    await database.drop();
  };
  try {
    const { key } = await createAccountKey(database.url, {
      account: 'sdk-e2e',
      mode: 'test',
      scopes: ['*'],
      secretsKeys: started.secretsKeys,
      numbers: [{ e164: VOICE_FROM, channels: ['voice'] }],
    });
    await receiver.start();
    proxy = await startFaultProxy(started.baseUrl);
    await openChatWindow(started, CHAT_CUSTOMER);
    return {
      stack: started,
      env: {
        SWITCHBOARD_BASE_URL: started.baseUrl,
        SWITCHBOARD_API_KEY: key,
        SWITCHBOARD_PROXY_URL: proxy.url,
        SWITCHBOARD_RECEIVER_URL: `http://127.0.0.1:${receiver.port}`,
        SWITCHBOARD_RECEIVER_LOG: receiver.logFile,
        SWITCHBOARD_CHAT_RECIPIENT: CHAT_CUSTOMER,
        SWITCHBOARD_VOICE_FROM: VOICE_FROM,
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The customer writes to the sandbox sender through the simulator; free-form chat is allowed once the window is cached. */
async function openChatWindow(stack: Stack, customer: string): Promise<void> {
  const res = await fetch(`${stack.simUrl}/sim/inbound`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ channel: 'chat', from: customer, to: SANDBOX_SENDER, text: 'hi' }),
  });
  if (!res.ok) throw new Error(`POST /sim/inbound answered ${res.status}: ${await res.text()}`);
  const redis = new Redis(TEST_REDIS_URL);
  try {
    const window = customerWindowCacheKey(stack.prefix, { accountId: SANDBOX_WINDOW_ACCOUNT, sender: SANDBOX_SENDER, customer });
    await eventually(
      () => redis.exists(window),
      (n) => n === 1,
      { what: `chat window for ${customer}` },
    );
  } finally {
    redis.disconnect();
  }
}

/** Runs a test command to its end without blocking the event loop: the fault proxy lives in this process. */
export function runSuite(
  command: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string> },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

export interface SdkSuite {
  /** The test's title. */
  title: string;
  /** The SDK's folder under clients/. */
  client: string;
  command: string;
  args: string[];
  /** Environment beyond the world's, given the SDK's folder. */
  env?: (clientDir: string) => Record<string, string>;
  /** Matches the runner's summary of a run in which every expected test passed and none was skipped. */
  passed: RegExp;
}

/**
 * One SDK's own test suite run against one real stack (every channel, a status, retries through an injected
 * 503 and 429 with exactly one message, pagination and a real webhook delivery), installing the runner first.
 */
export function describeSdkSuite(suite: SdkSuite): void {
  const clientDir = join(__dirname, '..', '..', 'clients', suite.client);
  let world: SdkWorld;
  beforeAll(async () => {
    ensureSdkTools();
    world = await startSdkWorld();
  }, 300_000);
  afterAll(async () => {
    await world?.stop();
  });
  test(
    suite.title,
    async () => {
      const { code, output } = await runSuite(suite.command, suite.args, { cwd: clientDir, env: { ...world.env, ...suite.env?.(clientDir) } });
      // The whole output is the received value, so a failure shows which test broke and why.
      expect(output).toMatch(suite.passed);
      expect(code).toBe(0);
    },
    180_000,
  );
}
