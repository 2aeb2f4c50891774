import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

const E164_SHAPE = /^\+[1-9]\d{6,14}$/;

/** An E.164 string that is also a valid number by libphonenumber's full metadata (docs/conventions.md#phone-numbers). */
export function isValidE164(value: unknown): value is string {
  if (typeof value !== 'string' || !E164_SHAPE.test(value)) return false;
  const parsed = parsePhoneNumberFromString(value);
  return parsed !== undefined && parsed.isValid() && parsed.number === value;
}

/** The number without its leading '+', as the chat and SMPP upstreams write it. */
export function e164Digits(e164: string): string {
  return e164.startsWith('+') ? e164.slice(1) : e164;
}
