import { describeSdkSuite } from './support/sdk-harness';

const EXPECTED_TESTS = 20;

// phpunit prints "OK, but" when a test was skipped, which the pattern refuses.
describeSdkSuite({
  title: 'phpunit passes every test of the SDK, none skipped, against the running stack',
  client: 'php',
  command: 'phpunit',
  args: ['--configuration', 'phpunit.xml'],
  passed: new RegExp(`\\nOK \\(${EXPECTED_TESTS} tests, \\d+ assertions\\)`),
});
