import type { Queue } from 'bullmq';
import { CONCRETE_CHANNELS, costUnits, e164Digits, optOutAction, type ConcreteChannel, type UnitPrices } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';
import { enqueueSendMessage, type SendMessageJob } from '@switchboard/queues';
import type { SuppressionCache } from '@switchboard/shared-state';
import type { InboundRow, NumbersRepository, SuppressionsRepository } from '@switchboard/store';

export interface OptOutReplies {
  /** Sent after STOP and its synonyms. */
  optOut: string;
  /** Sent after START or UNSTOP. */
  optIn: string;
}

export interface OptOutHandlerDeps {
  suppressions: Pick<SuppressionsRepository, 'add' | 'removeRecipient'>;
  cache: Pick<SuppressionCache, 'add' | 'remove'>;
  numbers: Pick<NumbersRepository, 'findByE164'>;
  /** The message-send queue: the confirmation is an ordinary message of the account. */
  sendQueue: Pick<Queue, 'add'>;
  replies: OptOutReplies;
  prices: UnitPrices;
  logger: Logger;
  clock: () => number;
}

const isConcrete = (channel: string): channel is ConcreteChannel => (CONCRETE_CHANNELS as readonly string[]).includes(channel);

/**
 * STOP and START from a customer (docs/routing.md#opt-out): changes the account's suppression list for
 * the channel the customer wrote on (PostgreSQL, then the Redis copy the gateway reads) and sends the
 * confirmation from the number they wrote to. The confirmation goes straight to the send queue, so the
 * gateway's suppression check never sees it: a reply to STOP still reaches the customer who just opted out.
 * Its message id is the inbound id's ULID, so a retried job cannot send it twice.
 */
export function createOptOutHandler(deps: OptOutHandlerDeps) {
  async function confirm(row: InboundRow, channel: ConcreteChannel, text: string): Promise<string> {
    const number = (await deps.numbers.findByE164(row.to_number)).find((n) => n.account_id === row.account_id);
    const sender =
      channel === 'chat' ? { e164: row.to_number, chat_phone_number_id: number?.chat_phone_number_id ?? e164Digits(row.to_number) } : { e164: row.to_number };
    const job: SendMessageJob = {
      message_id: `msg_${row.id.slice('inb_'.length)}`,
      account_id: row.account_id,
      // The customer reached us through the upstream configured for the account's number: the live set.
      mode: 'live',
      channel,
      plan: [channel],
      senders: { [channel]: sender },
      recipient: row.from_number,
      content: { text },
      cost_units: costUnits(channel, text, deps.prices),
      created_at: new Date(deps.clock()).toISOString(),
      metadata: { switchboard_reason: 'opt_out_confirmation' },
    };
    await enqueueSendMessage(deps.sendQueue, { job, delayMs: 0 });
    return job.message_id;
  }

  /** True when the inbound was an opt-out keyword and has been acted on. */
  return async (row: InboundRow): Promise<boolean> => {
    const action = optOutAction(row.text);
    if (!action || !isConcrete(row.channel)) return false;
    const channel = row.channel;
    const key = { accountId: row.account_id, channel, recipient: row.from_number };
    if (action === 'opt_out') {
      await deps.suppressions.add({ ...key, source: 'inbound', at: new Date(deps.clock()) });
      await deps.cache.add(key);
    } else {
      await deps.suppressions.removeRecipient(row.account_id, channel, row.from_number);
      await deps.cache.remove(key);
    }
    const replyId = await confirm(row, channel, action === 'opt_out' ? deps.replies.optOut : deps.replies.optIn);
    deps.logger.info('opt-out keyword applied', { account_id: row.account_id, channel, action, inbound_id: row.id, message_id: replyId });
    return true;
  };
}
export type OptOutHandler = ReturnType<typeof createOptOutHandler>;
