import { newId } from '@switchboard/domain';
import { createMessageWritesRepository, type Db, type StoredEvent } from '@switchboard/store';

/**
 * Produces real message events through the store, as the dispatcher does: a persisted message that is
 * sent (`message.sent`) and then delivered (`message.delivered`), each event written with its change.
 */
export async function sentAndDeliveredMessage(db: Db, accountId: string, callbackUrl?: string): Promise<{ messageId: string; events: StoredEvent[] }> {
  const writes = createMessageWritesRepository(db);
  const id = newId('msg');
  const at = new Date();
  await writes.persistAccepted({
    id,
    account_id: accountId,
    mode: 'test',
    channel: 'sms',
    plan: ['sms'],
    senders: { sms: { e164: '+14155550100' } },
    recipient: '+447911123400',
    content: { text: 'hello' },
    callback_url: callbackUrl,
    cost_units: 1,
    created_at: at.toISOString(),
  });
  const started = await writes.startAttempt({ messageId: id, channel: 'sms', sender: '+14155550100', at });
  if (started.outcome !== 'started') throw new Error(`unexpected ${started.outcome}`);
  const upstreamMessageId = `up-${id}`;
  const sent = await writes.attemptAccepted({ messageId: id, attemptId: started.attempt.id, upstreamMessageId, at: new Date() });
  const delivered = await writes.applyReceipt({
    channel: 'sms',
    upstreamMessageId,
    status: 'delivered',
    carrierStatusCode: 'DELIVRD',
    occurredAt: new Date().toISOString(),
  });
  return { messageId: id, events: [...started.events, ...sent.events, ...delivered.events] };
}
