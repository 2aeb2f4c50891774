import { join } from 'node:path';
import { describeSdkSuite } from './support/sdk-harness';

const EXPECTED_TESTS = 20;

// unittest reports skips as "OK (skipped=N)", which the pattern refuses.
describeSdkSuite({
  title: 'python3 -m unittest passes every test of the SDK, none skipped, against the running stack',
  client: 'python',
  command: 'python3',
  args: ['-m', 'unittest', 'discover', '-v', '-s', 'tests'],
  env: (clientDir) => ({ PYTHONPATH: join(clientDir, 'src') }),
  passed: new RegExp(`Ran ${EXPECTED_TESTS} tests in [\\d.]+s\\s+OK\\s*$`),
});
