import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import type { Logger } from '@switchboard/logger';
import type { FairShare, SendChunkJob, SendChunkProgress, SendJobPlacement, SendMessageJob } from '@switchboard/queues';
import { createConcurrencyLimit } from '@switchboard/runtime';
import { JOB_PAYLOAD_CHECKS } from '@switchboard/schemas';
import type { MessageWritesRepository, StoredProgress } from '@switchboard/store';
import type { MessageRunHost } from './message-run-host';

/**
 * Messages whose rows are read together and whose sends run side by side before the chunk records its
 * progress: a crash repeats at most this many runs (each guarded by the store), and one read of 100 rows
 * replaces 200 single-row reads.
 */
export const CHUNK_SLICE_MESSAGES = 100;

/**
 * Messages a chunk sends per turn before it yields to the next account's work in the bulk lane
 * (docs/messages.md#fairness-between-accounts): two slices, so a turn is a fraction of a second at the
 * lane's pace while a yield's cost (three Redis calls and a refetch of the chunk) stays under 2 % of it.
 */
export const CHUNK_TURN_MESSAGES = 2 * CHUNK_SLICE_MESSAGES;

/**
 * Chunks one dispatcher works on at once. Each keeps a slice of sends in flight and waits for the slowest of
 * them before its next slice, so several overlap to keep the upstream busy (four drained a campaign about 15 %
 * faster than two). A new account's chunk still waits at most one turn for a slot, and the turns, not the slots,
 * decide whose messages go next (docs/messages.md#fairness-between-accounts).
 */
export const CHUNKS_AT_ONCE = 4;

/**
 * Sends of this process's chunks in flight at once: every message of their slices, so that their send guards
 * and acceptances gather into set-based statements. Bounded by the bulk lane's 32 single-job slots instead, a
 * campaign drained about a third slower (docs/performance/campaign.md).
 */
export const CHUNK_SENDS_IN_FLIGHT = CHUNKS_AT_ONCE * CHUNK_SLICE_MESSAGES;

/** The wait of a message a chunk hands off after a transient failure: the first step of the send job's backoff. */
export const CHUNK_RETRY_HANDOFF_MS = 1_000;

/** Thrown by a chunk member's host to leave its run: the message continues in a job of its own. */
class HandOff extends Error {
  constructor(readonly at: number) {
    super('handed off to a job of its own');
  }
}

export interface SendChunkDeps {
  /** The send processor's run of one stored message (send-message.processor.ts). */
  sendMember: (data: SendMessageJob, host: MessageRunHost, known: StoredProgress | undefined) => Promise<void>;
  store: Pick<MessageWritesRepository, 'persistAcceptedMany' | 'rowsWithAttempts'>;
  /** Forgets the chunk index entries of stored messages (send-lanes.ts). */
  forgetChunkMembers: (messageIds: readonly string[]) => Promise<void>;
  /** Adds messages to the bulk lane as jobs of their own (job id = message id: a second add is a no-op). */
  handOff: (placements: readonly SendJobPlacement[]) => Promise<unknown>;
  fairShare: Pick<FairShare, 'priorities'>;
  clock: () => number;
  logger: Logger;
}

function progressOf(job: Job<SendChunkJob>): SendChunkProgress {
  const progress = job.progress as Partial<SendChunkProgress> | number | undefined;
  if (typeof progress !== 'object' || progress === null) return { persisted: false, next: 0 };
  return { persisted: progress.persisted === true, next: Number(progress.next ?? 0) };
}

/**
 * A batch's due messages in one job (docs/messages.md#chunk-lifecycle). The first run stores every message
 * in one statement and yields to its account's turn. Each later run sends slices of messages side by side,
 * each through the single send's passes, records its progress after every slice, and yields after a turn's
 * worth. A message that must wait (sender limit, throttling, a retry, an unknown outcome) continues in a job
 * of its own. A run after a crash starts again at the slice it was in: the store's send guard keeps those
 * messages from going out twice (docs/architecture.md#exactly-once-dispatch).
 */
export function createSendChunkProcessor(deps: SendChunkDeps) {
  const { store, clock, logger } = deps;
  const sendSlots = createConcurrencyLimit(CHUNK_SENDS_IN_FLIGHT);

  /** Back into the lane at the account's next turn, sized by the messages it will send then. */
  async function yieldTurn(job: Job<SendChunkJob>, token: string | undefined): Promise<never> {
    const turns = await deps.fairShare.priorities('bulk', job.data.account_id, CHUNK_TURN_MESSAGES);
    await job.changePriority({ priority: turns[turns.length - 1] });
    await job.moveToDelayed(clock(), token);
    throw new DelayedError();
  }

  async function persist(job: Job<SendChunkJob>, progress: SendChunkProgress): Promise<SendChunkProgress> {
    const messages = job.data.messages;
    await store.persistAcceptedMany(messages.map(({ message_id: id, ...accepted }) => ({ id, ...accepted })));
    await deps.forgetChunkMembers(messages.map((m) => m.message_id));
    const persisted = { ...progress, persisted: true };
    await job.updateProgress(persisted);
    return persisted;
  }

  async function sendSlice(job: Job<SendChunkJob>, slice: readonly SendMessageJob[]): Promise<void> {
    const known = await store.rowsWithAttempts(slice.map((m) => m.message_id));
    const handOffs: SendJobPlacement[] = [];
    const priority = job.priority > 0 ? job.priority : undefined;
    await Promise.all(
      slice.map((data) =>
        sendSlots(async () => {
          const host: MessageRunHost = {
            fields: { message_id: data.message_id, job_id: job.id, queue: job.queueName },
            leaveUntil: (at) => Promise.reject(new HandOff(at)),
            lastAttempt: false,
          };
          try {
            await deps.sendMember(data, host, known.get(data.message_id));
          } catch (error) {
            const at = error instanceof HandOff ? error.at : clock() + CHUNK_RETRY_HANDOFF_MS;
            if (!(error instanceof HandOff))
              logger.warn('chunk message failed; retrying in a job of its own', { ...host.fields, error: (error as Error).message });
            handOffs.push({ job: data, delayMs: Math.max(0, at - clock()), priority });
          }
        }),
      ),
    );
    // In Redis before the progress moves past them: a crash now repeats the slice, and the adds are no-ops.
    if (handOffs.length > 0) await deps.handOff(handOffs);
  }

  async function processSendChunk(job: Job<SendChunkJob>, token?: string): Promise<void> {
    const invalid = JOB_PAYLOAD_CHECKS.sendChunk(job.data);
    if (invalid) throw new UnrecoverableError(invalid);
    let progress = progressOf(job);
    if (!progress.persisted) {
      await persist(job, progress);
      // Stored and readable at once; the sends wait for the account's turn.
      return yieldTurn(job, token);
    }
    const { messages } = job.data;
    const turnEnd = progress.next + CHUNK_TURN_MESSAGES;
    while (progress.next < messages.length) {
      await sendSlice(job, messages.slice(progress.next, progress.next + CHUNK_SLICE_MESSAGES));
      progress = { persisted: true, next: Math.min(messages.length, progress.next + CHUNK_SLICE_MESSAGES) };
      await job.updateProgress(progress);
      if (progress.next < messages.length && progress.next >= turnEnd) return yieldTurn(job, token);
    }
  }

  /**
   * A chunk that will not run again (its attempts used up, say while PostgreSQL was down) hands every message it
   * had not finished to a job of its own, so that none is lost with it.
   */
  async function onChunkFailedForGood(job: Job<SendChunkJob>): Promise<void> {
    const progress = progressOf(job);
    const rest = job.data.messages.slice(progress.persisted ? progress.next : 0);
    await deps.handOff(rest.map((data) => ({ job: data, delayMs: 0 })));
    logger.warn('chunk failed for good; its unfinished messages continue in jobs of their own', { job_id: job.id, messages: rest.length });
  }

  return { process: processSendChunk, onFailedForGood: onChunkFailedForGood };
}
