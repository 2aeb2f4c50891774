export * from './suppression.schema';
export * from './suppressions-openapi.paths';
