/**
 * Reads a submit_sm `validity_period` (SMPP v3.4 §7.1.1). node-smpp already turns a well-formed value
 * into a Date (a relative `YYMMDDhhmmss000R` is added to the current time); a raw string is read here
 * in case a PDU arrives undecoded.
 */
export type Validity = { kind: 'none' } | { kind: 'relative'; seconds: number } | { kind: 'invalid' };

const RELATIVE = /^(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)000R$/;

export function parseValidityPeriod(value: unknown, nowMs: number): Validity {
  if (value === undefined || value === null || value === '') return { kind: 'none' };
  if (value instanceof Date) {
    const ms = value.getTime();
    return Number.isNaN(ms) ? { kind: 'invalid' } : { kind: 'relative', seconds: Math.max(0, Math.round((ms - nowMs) / 1000)) };
  }
  if (typeof value !== 'string') return { kind: 'invalid' };
  const match = RELATIVE.exec(value);
  if (!match) return { kind: 'invalid' };
  const [years, months, days, hours, minutes, seconds] = match.slice(1).map(Number);
  // Years and months are approximated (365 and 30 days); the simulator needs only an order of magnitude.
  return { kind: 'relative', seconds: (((years * 365 + months * 30 + days) * 24 + hours) * 60 + minutes) * 60 + seconds };
}
