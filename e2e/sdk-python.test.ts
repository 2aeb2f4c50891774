import { join } from 'node:path';
import { ensureSdkTools } from '@switchboard/devstack';
import { runSuite, startSdkWorld, type SdkWorld } from './support/sdk-harness';

// The Python SDK's own unittest suite (clients/python/tests) against one real stack: every channel, a status,
// retries through an injected 503 and 429 with exactly one message, pagination and a real webhook delivery.
const CLIENT_DIR = join(__dirname, '..', 'clients', 'python');
const EXPECTED_TESTS = 17;

let world: SdkWorld;

beforeAll(async () => {
  ensureSdkTools();
  world = await startSdkWorld();
}, 300_000);

afterAll(async () => {
  await world?.stop();
});

test('python3 -m unittest passes every test of the SDK, none skipped, against the running stack', async () => {
  const { code, output } = await runSuite('python3', ['-m', 'unittest', 'discover', '-v', '-s', 'tests'], {
    cwd: CLIENT_DIR,
    env: { ...world.env, PYTHONPATH: join(CLIENT_DIR, 'src') },
  });
  // The whole output is the received value, so a failure shows which test broke and why.
  expect(output).toMatch(new RegExp(`Ran ${EXPECTED_TESTS} tests in [\\d.]+s\\s+OK\\s*$`));
  expect(output).not.toMatch(/skipped/);
  expect(code).toBe(0);
}, 180_000);
