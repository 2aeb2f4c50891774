import {
  channelPlan,
  e164Digits,
  UnprocessableError,
  type ConcreteChannel,
  type KeyMode,
  type RequestedChannel,
  type ResolvedSender,
} from '@switchboard/domain';
import type { SkipReason } from '@switchboard/queues';
import type { NumberRecord } from '@switchboard/store';

export interface SenderResolutionInput {
  channel: RequestedChannel;
  fallback?: readonly ConcreteChannel[];
  from?: string;
  mode: KeyMode;
  /** The account's numbers, oldest first: the default sender is the first provisioned for the channel. */
  numbers: readonly NumberRecord[];
  sandboxSender: string;
}

export interface SenderPlan {
  plan: ConcreteChannel[];
  senders: Partial<Record<ConcreteChannel, ResolvedSender>>;
  /** Plan channels that cannot carry this message; recorded as skipped attempts by the dispatcher. */
  skipped?: Partial<Record<ConcreteChannel, SkipReason>>;
}

function sender(e164: string, channel: ConcreteChannel, chatPhoneNumberId: string | null): ResolvedSender {
  // The chat upstream addresses a sender by its phone-number-id; in the sandbox that is the digits (upstream-wire.md).
  return channel === 'chat' ? { e164, chat_phone_number_id: chatPhoneNumberId ?? e164Digits(e164) } : { e164 };
}

function senderFor(channel: ConcreteChannel, input: SenderResolutionInput): ResolvedSender | null {
  const provisioned = input.numbers.find((n) => n.channels.includes(channel) && (input.from === undefined || n.e164 === input.from));
  if (provisioned) return sender(provisioned.e164, channel, provisioned.chat_phone_number_id);
  // Test keys never reach a real upstream (docs/authentication.md#test-and-live-keys), so the simulator's sandbox sender stands in.
  if (input.mode === 'test' && (input.from === undefined || input.from === input.sandboxSender)) {
    return sender(input.sandboxSender, channel, null);
  }
  return null;
}

/**
 * The `from` rules (docs/messages.md#senders) for each channel of the plan. A concrete channel without a sender is a 422;
 * `auto` drops such channels and is a 422 only when none is left.
 */
export function resolveSenders(input: SenderResolutionInput): SenderPlan {
  const requested = channelPlan(input.channel, input.fallback);
  const result: SenderPlan = { plan: [], senders: {} };
  for (const channel of requested) {
    const resolved = senderFor(channel, input);
    if (!resolved) continue;
    result.plan.push(channel);
    result.senders[channel] = resolved;
  }
  if (result.plan.length > 0) return result;
  const channels = requested.join(', ');
  if (input.from !== undefined) {
    throw new UnprocessableError('from_number_not_provisioned', `${input.from} is not provisioned on this account for ${channels}.`, [
      { field: '/from', message: `is not provisioned for ${channels}` },
    ]);
  }
  throw new UnprocessableError('no_sender_for_channel', `This account has no number provisioned for ${channels}.`, [
    { field: '/channel', message: `no sender is provisioned for ${channels}` },
  ]);
}
