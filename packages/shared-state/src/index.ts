export * from './customer-window.cache';
export * from './suppression.cache';
