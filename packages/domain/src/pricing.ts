import type { ConcreteChannel } from './channels';
import { countSmsSegments } from './sms-segments';

export type UnitPrices = Readonly<Record<ConcreteChannel, number>>;

/** cost_units = parts × the channel's unit price (docs/messages.md#cost-and-sms-segments); only SMS has more than one part. */
export function costUnits(channel: ConcreteChannel, renderedText: string, prices: UnitPrices): number {
  const parts = channel === 'sms' ? countSmsSegments(renderedText) : 1;
  return parts * prices[channel];
}

/** The descriptive `estimated_delivery` of the creation response. */
export function estimatedDelivery(channel: ConcreteChannel | 'auto'): string {
  return channel === 'auto' ? 'within 60 seconds' : 'within 5 seconds';
}
