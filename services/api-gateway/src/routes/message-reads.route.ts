import type { RequestHandler } from 'express';
import { isId, NotFoundError } from '@switchboard/domain';
import type { SendLanes, SendMessageJob } from '@switchboard/queues';
import { queuedMessageResource, type MessageReadsRepository } from '@switchboard/store';
import type { DependencyGuard } from '../http/dependency-guard';
import { callerOf } from '../http/request-context';
import { encodeCursor, parseListQuery } from '../messages/list-query';

export interface MessageReadsDeps {
  reads: MessageReadsRepository;
  /** The send lanes (docs/messages.md#traffic-lanes): a message waits in one of them, alone or in a chunk, until it is stored. */
  queue: Pick<SendLanes, 'findWaiting'>;
  guard: DependencyGuard;
}

/**
 * Reads scoped to the caller's account. Until the dispatcher persists an accepted message, its job (job
 * id = message id) or its chunk's entry is the message, so an accepted message is never a 404
 * (docs/messages.md#reading-messages).
 */
export function createMessageReadHandlers({ reads, queue, guard }: MessageReadsDeps) {
  // A job held back by quiet hours is `scheduled` until its time; then it waits for a worker like any other.
  const waitingStatus = (job: SendMessageJob): 'queued' | 'scheduled' =>
    job.scheduled_until && Date.parse(job.scheduled_until) > Date.now() ? 'scheduled' : 'queued';

  async function queuedJob(accountId: string, id: string): Promise<SendMessageJob | null> {
    const data = (await guard('redis', () => queue.findWaiting(id)))?.data;
    return data && data.account_id === accountId ? data : null;
  }

  function idParam(value: unknown): string {
    // Malformed ids are answered like unknown ones, so a response never tells whether an id exists (docs/conventions.md#identifiers).
    if (!isId('msg', value)) throw new NotFoundError();
    return value;
  }

  const getMessage: RequestHandler = async (req, res) => {
    const { accountId } = callerOf(res);
    const id = idParam(req.params.id);
    const stored = await guard('store', () => reads.findForAccount(accountId, id));
    if (stored) {
      res.json(stored);
      return;
    }
    const job = await queuedJob(accountId, id);
    if (job) {
      res.json(
        queuedMessageResource({
          id,
          channel: job.channel,
          recipient: job.recipient,
          created_at: job.created_at,
          cost_units: job.cost_units,
          metadata: job.metadata,
          traffic_class: job.traffic_class,
          status: waitingStatus(job),
        }),
      );
      return;
    }
    // The dispatcher may have persisted it (and the job been trimmed) between the two reads.
    const late = await guard('store', () => reads.findForAccount(accountId, id));
    if (!late) throw new NotFoundError();
    res.json(late);
  };

  const getMessageEvents: RequestHandler = async (req, res) => {
    const { accountId } = callerOf(res);
    const id = idParam(req.params.id);
    const transitions = await guard('store', () => reads.transitions(accountId, id));
    if (transitions) {
      res.json({ data: transitions });
      return;
    }
    const job = await queuedJob(accountId, id);
    if (!job) throw new NotFoundError();
    // The same first transition the dispatcher records when it persists the message.
    res.json({
      data: [{ sequence: 1, status: waitingStatus(job), channel: null, carrier_status_code: null, error_code: null, at: job.created_at }],
    });
  };

  const listMessages: RequestHandler = async (req, res) => {
    const { accountId } = callerOf(res);
    const filter = parseListQuery(req.query as Record<string, unknown>);
    // One extra row tells whether another page exists without a count query.
    const rows = await guard('store', () => reads.list(accountId, { ...filter, limit: filter.limit + 1 }));
    const page = rows.slice(0, filter.limit);
    const nextCursor = rows.length > filter.limit ? encodeCursor(page[page.length - 1].id) : null;
    res.json({ data: page, next_cursor: nextCursor });
  };

  return { getMessage, getMessageEvents, listMessages };
}
