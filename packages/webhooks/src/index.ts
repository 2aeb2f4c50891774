export * from './event-types';
export * from './signing';
export * from './ip-address';
export * from './address-classes';
export * from './target-guard';
export * from './guarded-lookup';
export * from './retry-schedule';
