import { describeSdkSuite } from './support/sdk-harness';

const EXPECTED_TESTS = 38;

// `npm test` in clients/node compiles the SDK's tests and runs them with node --test; its TAP summary counts
// skipped tests, which the pattern refuses.
describeSdkSuite({
  title: 'node --test passes every test of @switchboard/sdk, none skipped, against the running stack',
  client: 'node',
  command: 'npm',
  args: ['test', '--silent'],
  passed: new RegExp(`# tests ${EXPECTED_TESTS}\\n# suites \\d+\\n# pass ${EXPECTED_TESTS}\\n# fail 0\\n# cancelled 0\\n# skipped 0\\n# todo 0\\n`),
});
