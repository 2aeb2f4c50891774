import type { ConcreteChannel } from '@switchboard/domain';
import { createBatcher } from '@switchboard/runtime';
import { suppressionCacheKey } from '@switchboard/shared-state';

type Mget = (...keys: string[]) => Promise<Array<string | null>>;

/** Every lookup of a turn goes in one MGET, whatever their number: a batch's own item limit bounds it. */
const MAX_KEYS_PER_MGET = Number.POSITIVE_INFINITY;

/**
 * The suppression lookup of docs/routing.md#opt-out for batch sends: the lookups of every item that
 * start before the event loop turns are answered by ONE MGET, so a batch of 1,000 costs one round trip
 * instead of 1,000 (docs/messages.md#batch-sends). A failed MGET fails every lookup it carried.
 */
export function createCoalescedSuppressionLookup({ mget, prefix }: { mget: Mget; prefix: string }) {
  const lookUp = createBatcher<string[], Array<string | null>>({
    runMany: async (keyLists) => {
      const values = await mget(...keyLists.flat());
      let offset = 0;
      return keyLists.map((keys) => values.slice(offset, (offset += keys.length)));
    },
    flush: 'next-turn',
    maxSize: MAX_KEYS_PER_MGET,
    sizeOf: (keys) => keys.length,
    onGroupFailure: 'fail-group',
  });

  return async (accountId: string, recipient: string, channels: readonly ConcreteChannel[]): Promise<Set<ConcreteChannel>> => {
    if (channels.length === 0) return new Set();
    const values = await lookUp(channels.map((channel) => suppressionCacheKey(prefix, { accountId, channel, recipient })));
    return new Set(channels.filter((_, i) => values[i] !== null));
  };
}
