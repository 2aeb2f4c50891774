export * from './call-request.schema';
export * from './agent-node.schemas';
export * from './agent-request.validator';
export * from './place-call-job.schema';
