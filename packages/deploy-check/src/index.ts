export * from './render-chart';
export * from './worker-queues';
export * from './observability-metrics';
