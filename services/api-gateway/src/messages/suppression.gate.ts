import { UnprocessableError, type ConcreteChannel } from '@switchboard/domain';
import type { DependencyGuard } from '../http/dependency-guard';
import type { SenderPlan } from './sender-resolution';

export interface SuppressionGateDeps {
  /** The plan channels on which the recipient opted out; one Redis MGET (packages/shared-state). */
  suppressedChannels: (accountId: string, recipient: string, channels: readonly ConcreteChannel[]) => Promise<Set<ConcreteChannel>>;
  guard: DependencyGuard;
}

function optedOut(): UnprocessableError {
  return new UnprocessableError('recipient_opted_out', 'The recipient opted out of messages from this account on this channel.', [
    { field: '/recipient', message: 'is on the account’s suppression list for the channel (docs/routing.md#opt-out)' },
  ]);
}

/**
 * The suppression list (docs/routing.md#opt-out), checked before anything is queued: a concrete channel
 * the recipient opted out of is a 422; with `auto` such a channel is skipped like a closed chat window,
 * and the request is a 422 only when no channel is left.
 */
export function createSuppressionGate({ suppressedChannels, guard }: SuppressionGateDeps) {
  return async (accountId: string, recipient: string, senders: SenderPlan): Promise<SenderPlan> => {
    const suppressed = await guard('redis', () => suppressedChannels(accountId, recipient, senders.plan));
    if (suppressed.size === 0) return senders;
    const skipped = { ...senders.skipped };
    for (const channel of suppressed) skipped[channel] = 'recipient_opted_out';
    if (senders.plan.every((c) => skipped[c])) throw optedOut();
    return { ...senders, skipped };
  };
}
export type SuppressionGate = ReturnType<typeof createSuppressionGate>;
