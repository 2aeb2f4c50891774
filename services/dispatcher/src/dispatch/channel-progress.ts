import type { ConcreteChannel } from '@switchboard/domain';

/** What the derivation needs from a stored attempt. */
export interface AttemptState {
  channel: string;
  status: string;
  /** Set when the message left the attempt after its fallback timeout (docs/routing.md#time-based-fallback). */
  abandoned_at?: Date | null;
}

/**
 * Where a message stands in its plan, read from the store rather than the job, so a run after a crash
 * continues where the last one stopped: a channel is done once it has a `failed` or abandoned attempt, and the
 * current channel is the first plan channel that is not done.
 */
export function currentChannel(plan: readonly ConcreteChannel[], attempts: readonly AttemptState[]): ConcreteChannel | null {
  return remainingChannels(plan, attempts)[0] ?? null;
}

/**
 * The channel `auto` falls back to after `channel`. Only `auto` falls back (docs/messages.md#auto-fallback); a message sent
 * on a named channel has a one-channel plan, so this is null for it anyway.
 */
export function fallbackChannel(
  requested: string,
  plan: readonly ConcreteChannel[],
  attempts: readonly AttemptState[],
  channel: ConcreteChannel,
): ConcreteChannel | null {
  if (requested !== 'auto') return null;
  const later = plan.slice(plan.indexOf(channel) + 1);
  return remainingChannels(later, attempts)[0] ?? null;
}

function remainingChannels(plan: readonly ConcreteChannel[], attempts: readonly AttemptState[]): ConcreteChannel[] {
  const done = new Set(attempts.filter((a) => a.status === 'failed' || a.abandoned_at).map((a) => a.channel));
  return plan.filter((channel) => !done.has(channel));
}

/** Plan channels the gateway resolved no sender for; such a message cannot be sent on them. */
export function channelsWithoutSender(plan: readonly ConcreteChannel[], senders: Partial<Record<ConcreteChannel, unknown>>): ConcreteChannel[] {
  return plan.filter((channel) => !senders[channel]);
}
