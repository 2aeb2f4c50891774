export * from './customer-window.cache';
export * from './upstream-breakers.store';
export * from './suppression.cache';
export * from './partition-copies';
