export * from './customer-window.cache';
