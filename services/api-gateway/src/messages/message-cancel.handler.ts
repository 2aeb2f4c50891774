import type { RequestHandler } from 'express';
import { ConflictError, isId, NotFoundError, ValidationError } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';
import type { PublishEvents, SendLanes } from '@switchboard/queues';
import type { MessageReadsRepository, ScheduledMessagesRepository } from '@switchboard/store';
import type { DependencyGuard } from '../http/dependency-guard';
import { callerOf } from '../http/request-context';

export interface MessageCancelDeps {
  /** The send lanes (docs/messages.md#traffic-lanes): a message waits in one of them, alone or in a chunk, until it is stored. */
  queue: Pick<SendLanes, 'findWaiting'>;
  reads: Pick<MessageReadsRepository, 'findForAccount'>;
  scheduled: Pick<ScheduledMessagesRepository, 'cancelScheduled'>;
  publishEvents: PublishEvents;
  guard: DependencyGuard;
  logger: Logger;
  clock?: () => number;
}

const notCancelable = (status: string) => new ConflictError('message_not_cancelable', `Only a scheduled message can be canceled; this one is ${status}.`);

/**
 * `DELETE /v1/messages/{id}` (docs/messages.md#canceling-a-scheduled-message). Race-safe against the
 * dispatcher taking the job at the same moment: the message row in PostgreSQL decides. The cancel
 * inserts it as `scheduled` and ends it `canceled` in one transaction; the dispatcher's own insert then
 * finds an ended row and sends nothing. If the dispatcher inserted first, the message is `queued` or
 * beyond and the answer is 409. Removing the delayed job afterwards only saves the dispatcher a no-op run.
 */
export function createMessageCancelHandler({ queue, reads, scheduled, publishEvents, guard, logger, clock = Date.now }: MessageCancelDeps): RequestHandler {
  return async (req, res) => {
    const { accountId } = callerOf(res);
    const id = req.params.id;
    // No id of another shape can exist, so naming the field tells nothing about which ids do.
    if (!isId('msg', id)) throw new ValidationError([{ field: 'path:id', message: 'must be a message id (msg_…)' }], 'The message id is malformed.');
    const stored = await guard('store', () => reads.findForAccount(accountId, id));
    if (stored) {
      // Canceling twice answers like the first time.
      if (stored.status === 'canceled') return void res.json(stored);
      throw notCancelable(stored.status);
    }
    const waiting = await guard('redis', () => queue.findWaiting(id));
    const data = waiting?.data;
    if (!waiting || !data || data.account_id !== accountId) {
      const late = await guard('store', () => reads.findForAccount(accountId, id));
      if (!late) throw new NotFoundError();
      throw notCancelable(late.status);
    }
    if (!data.scheduled_until || Date.parse(data.scheduled_until) <= clock()) throw notCancelable('queued');
    const { message_id: messageId, ...accepted } = data;
    const result = await guard('store', () => scheduled.cancelScheduled({ message: { id: messageId, ...accepted }, at: new Date(clock()) }));
    if (result.outcome === 'not_cancelable') throw notCancelable(result.row.status);
    await publishEvents(result.events, { message_id: id });
    // A job the dispatcher already holds cannot be removed; its run finds the canceled row and ends.
    // A scheduled message never waits in a chunk (docs/messages.md#chunk-lifecycle), so it has a job of its own.
    await waiting.ownJob
      ?.remove()
      .catch((error: Error) => logger.info('canceled message job left to the dispatcher', { message_id: id, reason: error.message }));
    const canceled = await guard('store', () => reads.findForAccount(accountId, id));
    res.json(canceled);
  };
}
