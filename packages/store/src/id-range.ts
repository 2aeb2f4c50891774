import { createPooledIdGenerator, type IdPrefix } from '@switchboard/domain';
import { monthStart } from './month-partitions';

/**
 * The smallest and largest of `ids`, for a statement that joins a month-partitioned table against a batch's rows:
 * `AND m.id >= $lo AND m.id <= $hi` lets PostgreSQL prune to the batch's months, which a join key or a generic
 * plan's `= ANY($1)` cannot (docs/storage-layout.md#time-partitioned-tables). JavaScript's order is the partition
 * bounds' order: ids of one kind are one prefix and uppercase Crockford base32 of one length, which sort alike
 * by code unit and in the database's collation (packages/store/test/month-partitions-pruning.int.test.ts checks it).
 */
export function idRange(ids: Iterable<string>): [lo: string, hi: string] {
  let lo: string | undefined;
  let hi: string | undefined;
  for (const id of ids) {
    if (lo === undefined || id < lo) lo = id;
    if (hi === undefined || id > hi) hi = id;
  }
  // No ids: a range that holds no id, for a statement whose batch is empty and matches nothing anyway.
  return lo === undefined || hi === undefined ? ['', ''] : [lo, hi];
}

const newId = createPooledIdGenerator();

/**
 * The smallest id of `kind` made in the UTC month `offset` months from the one holding `at`: the lower bound of
 * that month's partitions, as migration 013's `month_partition_bound` computes it.
 */
export function monthIdBound(kind: IdPrefix, at: Date, offset = 0): string {
  return `${newId(kind, monthStart(at, offset).getTime()).slice(0, kind.length + 11)}${'0'.repeat(16)}`;
}
