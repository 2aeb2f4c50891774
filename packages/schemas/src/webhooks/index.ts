export * from './webhook-endpoint.request';
export * from './event-list.query';
export * from './webhook-resources.schema';
export * from './webhooks-openapi.paths';
