export * from './env';
export * from './shutdown';
export * from './metrics';
export * from './health-server';
export * from './common-config';
export * from './worker-service';
