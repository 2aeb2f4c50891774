export * from './env';
export * from './shutdown';
export * from './http-drain';
export * from './metrics';
export * from './common-config';
export * from './worker-service';
export * from './batcher';
export * from './concurrency-limit';
