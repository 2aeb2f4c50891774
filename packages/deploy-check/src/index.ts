export * from './render-chart';
export * from './worker-queues';
