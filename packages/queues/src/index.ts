export * from './names';
export * from './payloads';
export * from './connections';
export * from './job-options';
export * from './webhook-payloads';
export * from './template-jobs';
