export * from './chat-limits';
export * from './chat-type.schemas';
export * from './chat-payload.checks';
export * from './chat-message-request';
export * from './template-placeholders';
export * from './template-create.schema';
export * from './template-send.rules';
export * from './chat-openapi.paths';
