import type { AttemptRow } from './message-rows';

/** Statuses after which nothing more is sent, nor expired (docs/messages.md#message-states). */
const ENDED = new Set(['delivered', 'read', 'failed', 'undelivered', 'canceled']);
const ACCEPTED_ATTEMPT = new Set(['sent', 'delivered', 'read']);

export function hasEnded(status: string): boolean {
  return ENDED.has(status);
}

/**
 * True when the message needs no further send: it ended, or an upstream holds it on an attempt the
 * message still follows. An attempt left by a fallback timeout (docs/routing.md#time-based-fallback)
 * no longer counts, so a `sent` message whose only accepted attempt was abandoned goes on.
 */
export function isHandedOff(status: string, attempts: ReadonlyArray<Pick<AttemptRow, 'status' | 'abandoned_at'>>): boolean {
  if (hasEnded(status)) return true;
  if (status !== 'sent') return false;
  return attempts.some((a) => a.abandoned_at === null && ACCEPTED_ATTEMPT.has(a.status));
}

const PART_RANK: Record<string, number> = { sent: 1, failed: 2, undelivered: 2, delivered: 3, read: 4 };

/**
 * The status of a multi-part SMS attempt from its parts' receipts (docs/routing.md#multi-part-sms):
 * a failure of any part fails it, every part delivered delivers it, anything else leaves it `sent`.
 */
export function combinedPartStatus(partIds: readonly string[], statuses: Readonly<Record<string, string>>): string {
  const failed = partIds.map((id) => statuses[id]).find((s) => s === 'failed' || s === 'undelivered');
  if (failed) return failed;
  return partIds.every((id) => (PART_RANK[statuses[id]] ?? 0) >= PART_RANK.delivered) ? 'delivered' : 'sent';
}

/** Keeps the furthest status a part reported: duplicates and late `sent` receipts change nothing. */
export function furtherPartStatus(current: string | undefined, reported: string): string {
  return (PART_RANK[reported] ?? 0) > (PART_RANK[current ?? ''] ?? 0) ? reported : (current as string);
}

export function partsDelivered(attempt: Pick<AttemptRow, 'upstream_part_ids' | 'part_statuses'>): number {
  const ids = attempt.upstream_part_ids ?? [];
  return ids.filter((id) => (PART_RANK[attempt.part_statuses?.[id] ?? ''] ?? 0) >= PART_RANK.delivered).length;
}
