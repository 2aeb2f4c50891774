export * from './env';
export * from './shutdown';
export * from './http-drain';
export * from './metrics';
export * from './common-config';
export * from './worker-service';
export * from './group-commit';
export * from './concurrency-limit';
