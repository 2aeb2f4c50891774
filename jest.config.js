// Three tiers as separate projects (STYLE): `npm run test:unit` runs only the fast one.
const tsJest = ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }];
const shared = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': tsJest },
  moduleNameMapper: { '^@switchboard/(.*)$': '<rootDir>/packages/$1/src' },
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/'],
};
// A project's own `testTimeout` is ignored by jest-circus (it reads the root one), so each tier sets it in a setup file.
const tierTimeout = (ms) => ({ globals: { TIER_TIMEOUT_MS: ms }, setupFilesAfterEnv: ['<rootDir>/scripts/jest-tier-timeout.js'] });
module.exports = {
  // Jest reads testTimeout from the global config only; the projects' own values below are not applied.
  // The longest tier's value therefore goes here, or a stack started in a beforeAll fails after 5 s.
  testTimeout: 120_000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/packages/*/test/**/*.test.ts', '<rootDir>/services/*/test/**/*.test.ts'],
      testPathIgnorePatterns: ['\\.int\\.test\\.ts$'],
    },
    {
      ...shared,
      displayName: 'int',
      testMatch: ['<rootDir>/packages/*/test/**/*.int.test.ts', '<rootDir>/services/*/test/**/*.int.test.ts'],
      ...tierTimeout(60_000),
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/e2e/**/*.test.ts'],
      ...tierTimeout(120_000),
    },
  ],
};
