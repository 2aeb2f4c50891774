export * from './infra';
export * from './embedded-postgres';
export * from './test-postgres';
export * from './service-process';
export * from './test-database';
export * from './account-key';
export * from './stack';
export * from './polling';
