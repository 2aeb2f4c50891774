import type { Logger } from '@switchboard/logger';

/** How often the drain looks whether the calls have ended. */
const CHECK_INTERVAL_MS = 250;

/**
 * The grace a shutdown gives the calls in progress (docs/voice.md#shutdown): resolves once this process holds no
 * call any more, or when `graceMs` has passed, whichever comes first. The caller stopped taking new calls before;
 * the calls still up afterwards are hung up as before, ending `orchestrator_lost`.
 */
export async function drainLiveCalls(
  liveCalls: { ids(): string[] },
  graceMs: number,
  logger: Pick<Logger, 'info'>,
  clock: () => number = Date.now,
): Promise<void> {
  const deadline = clock() + graceMs;
  const left = () => liveCalls.ids().length;
  if (graceMs <= 0 || left() === 0) return;
  logger.info('letting live calls end', { calls: left(), grace_ms: graceMs });
  while (left() > 0 && clock() < deadline) await new Promise((resolve) => setTimeout(resolve, Math.min(CHECK_INTERVAL_MS, Math.max(1, deadline - clock()))));
  logger.info('grace over', { calls_left: left() });
}
