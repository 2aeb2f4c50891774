export * from './env';
export * from './shutdown';
export * from './http-drain';
export * from './metrics';
export * from './health-server';
export * from './common-config';
