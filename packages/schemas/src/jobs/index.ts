export * from './send-message-job.schema';
export * from './provider-callback-job.schema';
export * from './id-only-jobs.schema';
export * from './message-timer-job.schema';
export * from './job-payload.checks';
