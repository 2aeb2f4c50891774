import type { EnvReader } from './env';

/** Cost units per part of each channel (the shape of `UnitPrices` in packages/domain). */
export interface UnitPriceList {
  chat: number;
  rcs: number;
  sms: number;
}

const CHANNELS = ['chat', 'rcs', 'sms'] as const;
export const UNIT_PRICES_FORMAT = 'channel=units pairs such as chat=1,rcs=1,sms=2 (a channel left out costs 1)';

/** Parses `chat=1,rcs=1,sms=2`; throws saying which pair is wrong. */
export function parseUnitPrices(text: string): UnitPriceList {
  const prices: UnitPriceList = { chat: 1, rcs: 1, sms: 1 };
  for (const pair of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [channel, units, ...rest] = pair.split('=').map((s) => s.trim());
    if (!(CHANNELS as readonly string[]).includes(channel) || rest.length > 0) throw new Error(`"${pair}" does not name chat, rcs or sms`);
    const value = Number(units);
    if (!/^\d+$/.test(units ?? '') || value > 1_000_000) throw new Error(`"${pair}" is not a whole number of units up to 1000000`);
    prices[channel as (typeof CHANNELS)[number]] = value;
  }
  return prices;
}

/**
 * UNIT_PRICES: the price list, one decision read alike by the gateway (a message's cost_units) and the dispatcher
 * (the opt-out confirmations' cost_units), docs/messages.md. @defaultValue 1 unit per part on every channel
 */
export function readUnitPrices(r: EnvReader): Readonly<UnitPriceList> {
  const prices = r.optionalString('UNIT_PRICES') === undefined ? { chat: 1, rcs: 1, sms: 1 } : r.parsed('UNIT_PRICES', parseUnitPrices, UNIT_PRICES_FORMAT);
  return Object.freeze({ ...prices });
}
