export * from './names';
export * from './payloads';
export * from './connections';
export * from './job-options';
