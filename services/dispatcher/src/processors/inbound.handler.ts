import type { Job } from 'bullmq';
import { SANDBOX_WINDOW_ACCOUNT, type UpstreamInbound } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';
import type { ProviderCallbackJob, PublishEvents } from '@switchboard/queues';
import type { CustomerWindowCache } from '@switchboard/shared-state';
import type { InboundMessagesRepository, InboundRow, StoredEvent } from '@switchboard/store';

export interface InboundHandlerDeps {
  inbound: Pick<InboundMessagesRepository, 'record'>;
  windows: Pick<CustomerWindowCache, 'remember'>;
  logger: Logger;
  clock: () => number;
  /** The sender test keys fall back to (SANDBOX_SENDER); replies to it open a window no account owns. */
  sandboxSender?: string;
  publishEvents: PublishEvents<StoredEvent>;
  /** STOP/START keywords (docs/routing.md#opt-out); true when the reply was one and was acted on. */
  optOut?: (row: InboundRow) => Promise<boolean>;
}

const isText = (v: unknown): v is string => typeof v === 'string' && v !== '';

function isUsable(item: UpstreamInbound): boolean {
  return (
    isText(item.channel) && isText(item.upstreamId) && isText(item.from) && isText(item.to) && isText(item.type) && !Number.isNaN(Date.parse(item.receivedAt))
  );
}

/**
 * Stores customer replies (issue 3): one `inb_` record per upstream id, linked to the message it
 * answers, with the 24 h window and the `message.inbound` event in the same transaction. The window's
 * Redis key is written after the commit, also for a duplicate, so a run that failed between the two
 * repairs it when the job is retried.
 */
export function createInboundHandler({ inbound, windows, logger, clock, sandboxSender, publishEvents, optOut }: InboundHandlerDeps) {
  return async (items: UpstreamInbound[], job: Job<ProviderCallbackJob>): Promise<void> => {
    for (const item of items) {
      const fields = { job_id: job.id, channel: item.channel, upstream_id: item.upstreamId };
      if (!isUsable(item)) {
        logger.warn('inbound item unreadable; skipped', fields);
        continue;
      }
      const result = await inbound.record(
        {
          channel: item.channel,
          upstreamId: item.upstreamId,
          from: item.from,
          to: item.to,
          type: item.type,
          text: item.text,
          reply: item.reply,
          location: item.location,
          media: item.media,
          contextUpstreamId: item.contextUpstreamId,
          receivedAt: new Date(item.receivedAt),
        },
        new Date(clock()),
      );
      if (result.outcome === 'unowned') {
        if (item.channel === 'chat' && item.to === sandboxSender) {
          // The shared sandbox sender: no one to tell, but the window opens for every test key sending from it.
          await windows.remember({ accountId: SANDBOX_WINDOW_ACCOUNT, sender: item.to, customer: item.from }, new Date(item.receivedAt), clock());
          logger.debug('inbound to the sandbox sender opened its window', fields);
          continue;
        }
        // Nobody provisioned this number and the reply answers none of our messages: there is no one to tell.
        logger.warn('inbound for a number no account owns; dropped', { ...fields, to: item.to });
        continue;
      }
      const { row } = result;
      if (result.windowLastInboundAt) {
        await windows.remember({ accountId: row.account_id, sender: row.to_number, customer: row.from_number }, result.windowLastInboundAt, clock());
      }
      // A retried job finds its reply already stored; it applies the keyword again (every step is idempotent)
      // in case the run before failed between the commit and the suppression list. A webhook merely
      // delivered twice does not, so an old STOP cannot undo a later START.
      if (optOut && (result.outcome === 'stored' || job.attemptsMade > 0)) await optOut(row);
      if (result.outcome === 'duplicate') {
        logger.debug('inbound already stored', { ...fields, inbound_id: row.id });
        continue;
      }
      logger.info('inbound stored', { ...fields, inbound_id: row.id, account_id: row.account_id, context_message_id: row.context_message_id });
      await publishEvents(result.events, fields);
    }
  };
}
