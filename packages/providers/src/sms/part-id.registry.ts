export interface PartIdRegistry {
  /** Remembers that every id in `partIds` belongs to the message whose first part is `partIds[0]`. */
  remember(partIds: string[]): void;
  /** The first-part id for any part id still remembered; the id itself otherwise. */
  firstIdOf: (partId: string) => string;
  /** How many parts the message of `partId` has, while remembered; 1 otherwise. */
  partsOf: (partId: string) => number;
}

/**
 * Receipts arrive per part, but a message is known by its first part's id. This keeps the
 * mapping for a while (receipts normally arrive within minutes; SMSC validity is days at
 * most) in memory and bounded. It only helps receipts that reach the process that sent;
 * `SendAccepted.partIds` lets the caller persist the mapping for the rest.
 */
export function createPartIdRegistry(options: { retentionMs: number; maxEntries: number; now?: () => number }): PartIdRegistry {
  const now = options.now ?? Date.now;
  // Insertion order equals expiry order because every entry lives equally long.
  const entries = new Map<string, { firstId: string; parts: number; expiresAt: number }>();

  function evict(): void {
    const at = now();
    for (const [partId, entry] of entries) {
      if (entry.expiresAt > at && entries.size <= options.maxEntries) break;
      entries.delete(partId);
    }
  }

  return {
    remember(partIds) {
      if (partIds.length < 2) return;
      const firstId = partIds[0];
      const expiresAt = now() + options.retentionMs;
      for (const partId of partIds) {
        entries.delete(partId);
        entries.set(partId, { firstId, parts: partIds.length, expiresAt });
      }
      evict();
    },
    firstIdOf(partId) {
      const entry = entries.get(partId);
      return entry && entry.expiresAt > now() ? entry.firstId : partId;
    },
    partsOf(partId) {
      const entry = entries.get(partId);
      return entry && entry.expiresAt > now() ? entry.parts : 1;
    },
  };
}
