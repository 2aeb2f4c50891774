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

/**
 * What is wrong with `value` as a phone number, or undefined when it is a valid E.164 number: malformed input "is
 * not E.164"; a well-formed number that no region dials (such as +15551230001, in the US' 555 range) says so,
 * naming its region (docs/conventions.md#phone-numbers).
 */
export function e164Problem(value: unknown): string | undefined {
  if (typeof value !== 'string' || !E164_SHAPE.test(value)) return 'is not an E.164 number (a + and 7 to 15 digits, such as +14155550100)';
  const parsed = parsePhoneNumberFromString(value);
  if (parsed !== undefined && parsed.isValid() && parsed.number === value) return undefined;
  const region = parsed?.country ?? parsed?.getPossibleCountries()[0];
  if (parsed && region) return `is not a dialable number for its region (${region}, +${parsed.countryCallingCode})`;
  if (parsed) return `is not a dialable number for its region (+${parsed.countryCallingCode})`;
  return 'is not a dialable number for any region';
}
