export * from './args';
export * from './commands';
export * from './connection';
