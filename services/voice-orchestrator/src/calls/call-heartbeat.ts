import type { Logger } from '@switchboard/logger';
import type { PublishEvents } from '@switchboard/queues';
import type { CallProgressRepository, StoredEvent } from '@switchboard/store';
import type { LiveCalls } from './live-calls';

/**
 * Every interval: marks this process's calls alive, and ends as `failed` / `orchestrator_lost` the live calls of any
 * process that stopped beating for `lostAfterMs` (docs/voice.md#orchestrator-lost). Every orchestrator sweeps; the
 * conditional update makes a call end once whoever sees it first.
 */
export function startCallHeartbeat(deps: {
  progress: Pick<CallProgressRepository, 'heartbeat' | 'failLost'>;
  liveCalls: LiveCalls;
  orchestratorId: string;
  intervalMs: number;
  lostAfterMs: number;
  publishEvents: PublishEvents<StoredEvent>;
  logger: Logger;
  clock?: () => number;
}): { stop(): void } {
  const { clock = Date.now } = deps;
  let running = false;
  const beat = async () => {
    if (running) return;
    running = true;
    try {
      const now = clock();
      await deps.progress.heartbeat(deps.orchestratorId, deps.liveCalls.ids(), new Date(now));
      const lost = await deps.progress.failLost(new Date(now - deps.lostAfterMs), new Date(now));
      for (const change of lost) {
        deps.logger.warn('call lost with its orchestrator', { call_id: change.call.id, orchestrator_id: change.call.orchestrator_id });
        await deps.publishEvents(change.events, { call_id: change.call.id });
      }
    } catch (error) {
      deps.logger.warn('call heartbeat failed', { error: (error as Error).message });
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void beat(), deps.intervalMs);
  void beat();
  return { stop: () => clearInterval(timer) };
}
