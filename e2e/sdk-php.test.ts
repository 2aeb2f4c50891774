import { join } from 'node:path';
import { ensureSdkTools } from '@switchboard/devstack';
import { runSuite, startSdkWorld, type SdkWorld } from './support/sdk-harness';

// The PHP SDK's own phpunit suite (clients/php/tests) against one real stack: every channel, a status,
// retries through an injected 503 and 429 with exactly one message, pagination and a real webhook delivery.
const CLIENT_DIR = join(__dirname, '..', 'clients', 'php');
const EXPECTED_TESTS = 17;

let world: SdkWorld;

beforeAll(async () => {
  ensureSdkTools();
  world = await startSdkWorld();
}, 300_000);

afterAll(async () => {
  await world?.stop();
});

test('phpunit passes every test of the SDK, none skipped, against the running stack', async () => {
  const { code, output } = await runSuite('phpunit', ['--configuration', 'phpunit.xml'], { cwd: CLIENT_DIR, env: world.env });
  // The whole output is the received value, so a failure shows which test broke and why; a skip prints "OK, but".
  expect(output).toMatch(new RegExp(`\\nOK \\(${EXPECTED_TESTS} tests, \\d+ assertions\\)`));
  expect(code).toBe(0);
}, 180_000);
