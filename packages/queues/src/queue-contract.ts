import { Queue, type ConnectionOptions, type JobsOptions } from 'bullmq';
import { queueTelemetry } from './trace-context';

/**
 * What every queue contract in `contracts/` states: the queue's name, the names of the jobs it carries
 * and the options every job gets. Renaming a queue or a job needs a migration plan: jobs already
 * waiting under the old name are orphaned by a deploy that only knows the new one.
 */
export interface QueueContract<Data = unknown> {
  readonly name: string;
  readonly jobs: Readonly<Record<string, string>>;
  readonly jobOptions: Readonly<JobsOptions>;
  /** Type only ({@link payloadType}): the payload every job on the queue carries. */
  readonly payload: Data;
}

export type JobNameOf<C extends QueueContract> = C['jobs'][keyof C['jobs']];
export type PayloadOf<C extends QueueContract> = C['payload'];

/**
 * States a contract's payload type. Only the type exists: the value is `undefined`, and nothing reads it
 * at run time; it lets `createJobWorker` check that each handler takes the queue's payload.
 */
export function payloadType<Data>(): Data {
  return undefined as Data;
}

/** The part of a BullMQ `Queue` a producer helper needs; a `Queue` fits, and so does a test's stub. */
export interface JobAdder<Data> {
  add(name: string, data: Data, opts?: JobsOptions): Promise<unknown>;
}

export interface BulkJobAdder<Data> {
  addBulk(jobs: Array<{ name: string; data: Data; opts?: JobsOptions }>): Promise<unknown>;
}

/** A producer's handle on the contract's queue; with tracing on, its jobs carry the caller's trace context. */
export function openQueue<C extends QueueContract>(contract: C, options: { connection: ConnectionOptions; prefix: string }): Queue<PayloadOf<C>> {
  const telemetry = queueTelemetry();
  return new Queue<PayloadOf<C>>(contract.name, telemetry ? { ...options, telemetry } : options);
}
