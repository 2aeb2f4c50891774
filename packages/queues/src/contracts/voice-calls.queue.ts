import { JOB_RETENTION } from '../job-options';
import { payloadType, type JobAdder, type QueueContract } from '../queue-contract';

/**
 * Calls to place: produced by the gateway (and by the orchestrator for a redial), consumed by voice-orchestrator.
 * One attempt only: a call is never placed twice by a BullMQ retry; redials are a policy of the call
 * (docs/voice.md#retries) and a process lost mid-call is detected from its heartbeat (docs/voice.md#orchestrator-lost).
 * Renaming this queue or its job needs a migration plan: waiting jobs would be orphaned.
 */
export const VOICE_CALLS_QUEUE = {
  name: 'voice-calls',
  jobs: { placeCall: 'place-call' },
  jobOptions: { attempts: 1, ...JOB_RETENTION },
  payload: payloadType<PlaceCallJob>(),
} as const satisfies QueueContract;

/** Ids only: the call row is the truth, and a payload never carries secrets. */
export interface PlaceCallJob {
  call_id: string;
}

/** Job id = call id, so a retried request cannot enqueue the call twice. */
export function enqueuePlaceCall(queue: JobAdder<PlaceCallJob>, job: PlaceCallJob): Promise<unknown> {
  return queue.add(VOICE_CALLS_QUEUE.jobs.placeCall, job, { ...VOICE_CALLS_QUEUE.jobOptions, jobId: job.call_id });
}

/** A redial (docs/voice.md#retries): a delayed job whose id carries the attempt, so each attempt is queued once. */
export function enqueueRedial(queue: JobAdder<PlaceCallJob>, job: PlaceCallJob, attempt: number, delayMs: number): Promise<unknown> {
  return queue.add(VOICE_CALLS_QUEUE.jobs.placeCall, job, { ...VOICE_CALLS_QUEUE.jobOptions, jobId: `${job.call_id}-attempt-${attempt}`, delay: delayMs });
}

/**
 * The Redis pub/sub channel on which the gateway asks for a hangup: the message is the call id, and the
 * orchestrator process holding that call's media session acts on it (docs/voice.md#hangup).
 */
export function voiceHangupChannel(prefix: string): string {
  return `${prefix}:voice:hangup`;
}
