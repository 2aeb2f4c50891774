export const CONCRETE_CHANNELS = ['chat', 'rcs', 'sms'] as const;
export type ConcreteChannel = (typeof CONCRETE_CHANNELS)[number];
export type RequestedChannel = ConcreteChannel | 'auto';
export const REQUESTED_CHANNELS: readonly RequestedChannel[] = [...CONCRETE_CHANNELS, 'auto'];

/** Default `auto` order (docs/messages.md#auto-fallback): the richest channel first, SMS as the channel of last resort. */
const DEFAULT_FALLBACK: readonly ConcreteChannel[] = ['chat', 'rcs', 'sms'];

export function channelPlan(channel: RequestedChannel, fallback?: readonly ConcreteChannel[]): ConcreteChannel[] {
  if (channel !== 'auto') return [channel];
  return [...(fallback && fallback.length > 0 ? fallback : DEFAULT_FALLBACK)];
}
