import { randomUUID } from 'node:crypto';
import type { JobAdder } from './queue-contract';

/**
 * Queue partitions (docs/storage-layout.md#redis-keys-and-cluster): `QUEUE_PARTITIONS` splits every queue and
 * every per-account key over N hash tags, so that a Redis Cluster spreads Switchboard over its masters. An
 * account lives in one partition; keys everyone shares (circuit breakers, the upstream list, per-sender
 * schedules, provider callbacks) stay under the configured prefix itself, the shared tag.
 *
 * The mapping below is part of the storage contract: changing the hash, or the way a partition's prefix is
 * built, orphans every key already written (docs/operations.md#changing-queue-partitions).
 */

/** A partition's index and the prefix of all its keys, BullMQ's included. */
export interface QueuePartition {
  readonly index: number;
  readonly prefix: string;
}

/** The largest QUEUE_PARTITIONS: a Redis Cluster has 16,384 slots, far fewer masters; more tags only add Workers per process. */
export const MAX_QUEUE_PARTITIONS = 64;

/**
 * The prefixes of N partitions. One partition keeps the prefix as it is (today's keys, byte for byte); with
 * more, the prefix's first hash tag takes the partition's index (`{sb}` → `{sb:0}` … `{sb:N-1}`), and a prefix
 * without a tag (a single node) gets `:<index>` appended.
 */
export function partitionPrefixes(basePrefix: string, partitions: number): string[] {
  if (!Number.isInteger(partitions) || partitions < 1 || partitions > MAX_QUEUE_PARTITIONS) {
    throw new Error(`queue partitions must be an integer from 1 to ${MAX_QUEUE_PARTITIONS}, got ${partitions}`);
  }
  if (partitions === 1) return [basePrefix];
  const tag = /^([^{]*\{)([^}]+)(\}.*)$/.exec(basePrefix);
  return Array.from({ length: partitions }, (_, i) => (tag ? `${tag[1]}${tag[2]}:${i}${tag[3]}` : `${basePrefix}:${i}`));
}

/** The partitions as index and prefix, in index order. */
export function queuePartitions(basePrefix: string, partitions: number): QueuePartition[] {
  return partitionPrefixes(basePrefix, partitions).map((prefix, index) => ({ index, prefix }));
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * The partition of an account: 32-bit FNV-1a over the id's UTF-8 bytes, modulo N. Stable across processes,
 * hosts and versions (no seed, no runtime hash), and cheap on the gateway's hot path.
 */
export function partitionOf(accountId: string, partitions: number): number {
  if (partitions <= 1) return 0;
  let hash = FNV_OFFSET;
  for (const byte of Buffer.from(accountId, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, FNV_PRIME) >>> 0;
  }
  return hash % partitions;
}

/**
 * The partitions a worker process serves: every one when `served` is empty (the default), else the listed
 * indexes (`SERVE_PARTITIONS=0,2`), each below N. Throws naming the first index out of range.
 */
export function servedPartitions(all: readonly QueuePartition[], served: readonly number[]): QueuePartition[] {
  if (served.length === 0) return [...all];
  for (const index of served) {
    if (!Number.isInteger(index) || index < 0 || index >= all.length) throw new Error(`partition ${index} is not one of 0..${all.length - 1}`);
  }
  return all.filter((p) => served.includes(p.index));
}

/**
 * One part per partition, and the one serving an account. Built once at start-up by each service (a queue, a
 * store, a whole wiring per partition); `forAccount` is what a caller that knows the account uses.
 */
export interface Partitioned<Part> {
  readonly parts: readonly Part[];
  forAccount(accountId: string): Part;
  at(index: number): Part;
}

/** `build` runs once per partition of `all`; parts of partitions this process does not serve are built too (producers need every one). */
export function partitioned<Part>(all: readonly QueuePartition[], build: (partition: QueuePartition) => Part): Partitioned<Part> {
  const parts = all.map(build);
  return {
    parts,
    forAccount: (accountId) => parts[partitionOf(accountId, parts.length)],
    at: (index) => parts[index],
  };
}

/**
 * A producer over every partition's copy of a queue whose jobs belong to no account (provider callbacks): each job
 * goes to the partition of its job id, so a redelivered job (same id) meets its first copy and is dropped as before.
 */
export function jobAdderByJobId<Data>(queues: ReadonlyArray<JobAdder<Data>>): JobAdder<Data> {
  if (queues.length === 1) return queues[0];
  return { add: (name, data, opts) => queues[partitionOf(opts?.jobId ?? randomUUID(), queues.length)].add(name, data, opts) };
}
