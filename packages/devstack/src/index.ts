export * from './infra';
export * from './service-process';
export * from './test-database';
export * from './account-key';
export * from './stack';
export * from './polling';
export * from './voice-tools';
