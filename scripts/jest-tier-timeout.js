// Jest reads `testTimeout` only from the root config, not from a project; each tier sets its own here, for
// tests and hooks alike (jest.config.js passes it as the global TIER_TIMEOUT_MS).
jest.setTimeout(globalThis.TIER_TIMEOUT_MS);
