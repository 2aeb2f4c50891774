import { UnrecoverableError, type Job } from 'bullmq';
import type { Logger } from '@switchboard/logger';
import type { PlaceCallJob, PublishEvents } from '@switchboard/queues';
import { createPlaceCallJobCheck } from '@switchboard/schemas';
import type { AgentsRepository, CallProgressRepository, StoredEvent } from '@switchboard/store';
import type { TelephonyTrunk } from '@switchboard/telephony';
import { runCallSession, type CallSessionDeps } from '../calls/call-session';

export interface PlaceCallProcessorDeps extends CallSessionDeps {
  progress: CallSessionDeps['progress'] & Pick<CallProgressRepository, 'claim'>;
  agents: Pick<AgentsRepository, 'findById'>;
  /** Test keys' calls always go to the carrier simulator; live keys' to the configured trunk, if any. */
  trunks: { test: TelephonyTrunk; live?: TelephonyTrunk };
  orchestratorId: string;
  publishEvents: PublishEvents<StoredEvent>;
  logger: Logger;
}

/**
 * `place-call`: claims the call for this process and holds the job for the whole call, so the worker's
 * concurrency is the number of calls the process carries (docs/voice.md#capacity).
 */
export function createPlaceCallProcessor(deps: PlaceCallProcessorDeps) {
  const check = createPlaceCallJobCheck();
  const { clock = Date.now } = deps;
  return async (job: Job<PlaceCallJob>): Promise<void> => {
    const problem = check(job.data);
    if (problem) throw new UnrecoverableError(problem);
    const call = await deps.progress.claim(job.data.call_id, deps.orchestratorId, new Date(clock()));
    if (!call) return; // canceled while queued, or already taken
    const trunk = call.mode === 'test' ? deps.trunks.test : deps.trunks.live;
    const fields = { call_id: call.id };
    if (!trunk) {
      const ended = await deps.progress.ended(call.id, 'failed', 'sip_503', new Date(clock()));
      if (ended) await deps.publishEvents(ended.events, fields);
      return;
    }
    const agent = call.agent_id ? await deps.agents.findById(call.agent_id) : null;
    try {
      await runCallSession(trunk, call, agent, deps);
    } catch (error) {
      deps.logger.error('call failed in the orchestrator', { ...fields, error: (error as Error).message });
      const ended = await deps.progress.ended(call.id, 'failed', 'orchestrator_lost', new Date(clock()));
      if (ended) await deps.publishEvents(ended.events, fields);
    }
  };
}
