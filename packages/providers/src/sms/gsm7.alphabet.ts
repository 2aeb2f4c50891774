/**
 * GSM 03.38 default alphabet (3GPP TS 23.038 §6.2.1): index = septet value.
 * Position 0x1B is the escape to the extension table and never stands for a character.
 */
const BASIC_TABLE =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' + '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';

const GSM7_ESCAPE = 0x1b;

const BASIC_SEPTETS: ReadonlyMap<string, number> = new Map(
  [...BASIC_TABLE].map((char, septet) => [char, septet] as const).filter(([, septet]) => septet !== GSM7_ESCAPE),
);

/** The extension table: each is sent as 0x1B followed by this septet, the same set `@switchboard/domain` counts as two. */
const EXTENSION_SEPTETS: ReadonlyMap<string, number> = new Map([
  ['\f', 0x0a],
  ['^', 0x14],
  ['{', 0x28],
  ['}', 0x29],
  ['\\', 0x2f],
  ['[', 0x3c],
  ['~', 0x3d],
  [']', 0x3e],
  ['|', 0x40],
  ['€', 0x65],
]);

/**
 * Encodes to GSM-7 septets, one octet each (unpacked), which is what SMSCs expect in
 * `short_message` with data_coding 0; the SMSC packs them for the air interface.
 * Throws a RangeError for a character outside the alphabet.
 */
export function encodeGsm7(text: string): Buffer {
  const septets: number[] = [];
  for (const char of text) {
    const basic = BASIC_SEPTETS.get(char);
    if (basic !== undefined) {
      septets.push(basic);
      continue;
    }
    const extension = EXTENSION_SEPTETS.get(char);
    if (extension === undefined) throw new RangeError(`character U+${char.codePointAt(0)?.toString(16)} is not in the GSM-7 alphabet`);
    septets.push(GSM7_ESCAPE, extension);
  }
  return Buffer.from(septets);
}

/** UCS-2 as sent over SMPP with data_coding 8: UTF-16 big-endian (surrogate pairs kept as they are). */
export function encodeUcs2(text: string): Buffer {
  const buffer = Buffer.from(text, 'utf16le');
  buffer.swap16();
  return buffer;
}
