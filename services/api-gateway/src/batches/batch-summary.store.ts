import type { Redis } from 'ioredis';

/**
 * What the gateway keeps of a batch at acceptance, in Redis (docs/messages.md#batch-sends): the ids of
 * its accepted messages, with the time a scheduled one waits until. The dispatcher persists the
 * messages later; until a message is stored, GET /v1/batches/{id} counts it from here.
 */
export interface BatchSummary {
  id: string;
  account_id: string;
  created_at: string;
  total: number;
  rejected: number;
  /** [message id, scheduled_until or null], in item order. */
  messages: Array<[string, string | null]>;
}

/** Longer than the furthest send_at (30 days), so a scheduled batch can be read until it is sent. */
export const BATCH_SUMMARY_TTL_SECONDS = 40 * 24 * 3600;

export function createBatchSummaryStore({ redis, prefix }: { redis: Redis; prefix: string }) {
  const key = (id: string) => `${prefix}:batch:${id}`;
  return {
    async save(summary: BatchSummary): Promise<void> {
      await redis.set(key(summary.id), JSON.stringify(summary), 'EX', BATCH_SUMMARY_TTL_SECONDS);
    },
    async find(id: string): Promise<BatchSummary | null> {
      const raw = await redis.get(key(id));
      return raw ? (JSON.parse(raw) as BatchSummary) : null;
    },
    async exists(id: string): Promise<boolean> {
      return (await redis.exists(key(id))) === 1;
    },
  };
}
export type BatchSummaryStore = ReturnType<typeof createBatchSummaryStore>;
