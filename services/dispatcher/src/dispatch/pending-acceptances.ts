/**
 * The upstream ids whose acceptance this process is writing right now. An SMSC sends a delivery receipt as soon
 * as it answers `submit_sm_resp`, so on a busy dispatcher the receipt can reach its provider-callback job before
 * the acceptance (which records the SMSC's id) is committed, and the job would find no attempt and run again a
 * second later (docs/performance/dispatch-cost.md#cost-per-message-across-every-process). A receipt that names an id
 * in here waits for that write first. A receipt arriving on another process still relies on the retry.
 */
export interface PendingAcceptances {
  /** Registers `ids` until `write` settles, and returns `write`. */
  track<T>(ids: readonly string[], write: Promise<T>): Promise<T>;
  /** Settles once the acceptance naming `id` is written (or failed); undefined when none is being written. */
  settled(id: string): Promise<void> | undefined;
  /** Ids being written: for tests and metrics. */
  readonly size: number;
}

/** @param maxTracked ids held at most; past it, new writes go untracked and their receipts take the retry. */
export function createPendingAcceptances(maxTracked = 10_000): PendingAcceptances {
  const writing = new Map<string, Promise<void>>();
  return {
    track(ids, write) {
      if (writing.size + ids.length > maxTracked) return write;
      const done = write.then(
        () => undefined,
        () => undefined,
      );
      for (const id of ids) writing.set(id, done);
      void done.then(() => {
        for (const id of ids) if (writing.get(id) === done) writing.delete(id);
      });
      return write;
    },
    settled: (id) => writing.get(id),
    get size() {
      return writing.size;
    },
  };
}
