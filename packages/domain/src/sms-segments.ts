/**
 * SMS segment arithmetic (docs/messages.md#cost-and-sms-segments): GSM-7 when every character is in the GSM 03.38 default
 * alphabet or its extension table, UCS-2 otherwise. Extension characters cost two septets (escape + char).
 */
const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' + '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENSION = '\f^{}\\[]~|€';

const BASIC = new Set([...GSM7_BASIC].filter((ch) => ch !== '\u001b'));
const EXTENSION = new Set([...GSM7_EXTENSION]);

export type SmsEncoding = 'gsm7' | 'ucs2';

const SMS_LIMITS = {
  gsm7: { single: 160, concatenated: 153 },
  ucs2: { single: 70, concatenated: 67 },
} as const;

export function smsEncoding(text: string): SmsEncoding {
  for (const ch of text) if (!BASIC.has(ch) && !EXTENSION.has(ch)) return 'ucs2';
  return 'gsm7';
}

/** Units each character takes: septets for GSM-7, UTF-16 code units for UCS-2. */
function characterUnits(text: string, encoding: SmsEncoding): Array<{ chars: string; units: number }> {
  return [...text].map((ch) => ({
    chars: ch,
    units: encoding === 'gsm7' ? (EXTENSION.has(ch) ? 2 : 1) : ch.length,
  }));
}

export function splitSmsIntoParts(text: string): { encoding: SmsEncoding; parts: string[] } {
  const encoding = smsEncoding(text);
  const units = characterUnits(text, encoding);
  const total = units.reduce((sum, u) => sum + u.units, 0);
  const limits = SMS_LIMITS[encoding];
  if (total <= limits.single) return { encoding, parts: [text] };
  const parts: string[] = [];
  let current = '';
  let used = 0;
  for (const u of units) {
    // An escape pair or a surrogate pair is never split across two parts.
    if (used + u.units > limits.concatenated) {
      parts.push(current);
      current = '';
      used = 0;
    }
    current += u.chars;
    used += u.units;
  }
  if (current.length > 0) parts.push(current);
  return { encoding, parts };
}

export function countSmsSegments(text: string): number {
  return splitSmsIntoParts(text).parts.length;
}
