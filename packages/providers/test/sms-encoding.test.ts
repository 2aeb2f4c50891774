import { splitSmsIntoParts } from '@switchboard/domain';
import { encodeGsm7, encodeUcs2 } from '../src/sms/gsm7.alphabet';
import { concatenationUdh, encodeShortMessageParts } from '../src/sms/short-message.encoder';

describe('GSM-7 encoding (unpacked, one octet per septet)', () => {
  it('maps the basic table', () => {
    expect([...encodeGsm7('Hello @£$')]).toEqual([0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x20, 0x00, 0x01, 0x02]);
    expect([...encodeGsm7('_§¿àΔ\n')]).toEqual([0x11, 0x5f, 0x60, 0x7f, 0x10, 0x0a]);
  });

  it('escapes extension characters with 0x1B', () => {
    expect([...encodeGsm7('€[]{}\\^~|\f')]).toEqual([
      0x1b, 0x65, 0x1b, 0x3c, 0x1b, 0x3e, 0x1b, 0x28, 0x1b, 0x29, 0x1b, 0x2f, 0x1b, 0x14, 0x1b, 0x3d, 0x1b, 0x40, 0x1b, 0x0a,
    ]);
  });

  it('refuses characters outside the alphabet', () => {
    expect(() => encodeGsm7('ç')).toThrow(RangeError);
    expect(() => encodeGsm7('😀')).toThrow(RangeError);
  });

  it('encodes every text the domain splitter classifies as GSM-7', () => {
    const text = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./09:;<=>?¡AZÄÖÑÜ§¿azäöñüà\f^{}\\[]~|€';
    expect(splitSmsIntoParts(text).encoding).toBe('gsm7');
    expect(() => encodeGsm7(text)).not.toThrow();
  });
});

describe('UCS-2 encoding', () => {
  it('is UTF-16 big-endian, surrogate pairs included', () => {
    expect([...encodeUcs2('Hi')]).toEqual([0x00, 0x48, 0x00, 0x69]);
    expect([...encodeUcs2('😀')]).toEqual([0xd8, 0x3d, 0xde, 0x00]);
  });
});

describe('splitSmsIntoParts (from @switchboard/domain) as the adapter uses it', () => {
  it('keeps 160 GSM-7 septets in one part and splits 161 into 153-septet parts', () => {
    expect(splitSmsIntoParts('a'.repeat(160))).toEqual({ encoding: 'gsm7', parts: ['a'.repeat(160)] });
    const split = splitSmsIntoParts('a'.repeat(161));
    expect(split.parts.map((p) => p.length)).toEqual([153, 8]);
  });

  it('counts extension characters as two and never splits the escape pair', () => {
    expect(splitSmsIntoParts('€'.repeat(80)).parts).toHaveLength(1);
    const split = splitSmsIntoParts('a'.repeat(152) + '€' + 'b'.repeat(10));
    expect(split.parts[0]).toBe('a'.repeat(152));
    expect(split.parts[1].startsWith('€')).toBe(true);
  });

  it('uses UCS-2 with 70 / 67 and never splits a surrogate pair', () => {
    expect(splitSmsIntoParts('ж'.repeat(70))).toEqual({ encoding: 'ucs2', parts: ['ж'.repeat(70)] });
    expect(splitSmsIntoParts('ж'.repeat(71)).parts.map((p) => p.length)).toEqual([67, 4]);
    const split = splitSmsIntoParts('x'.repeat(66) + '😀' + 'y'.repeat(10));
    expect(split.parts[0]).toBe('x'.repeat(66));
    expect(split.parts[1].startsWith('😀')).toBe(true);
  });

  it('joins back to the original text', () => {
    const text = 'Grüße aus Köln – ' + 'ü€'.repeat(60);
    expect(splitSmsIntoParts(text).parts.join('')).toBe(text);
  });
});

describe('concatenation UDH and submit parts', () => {
  it('builds the 6-octet UDH with an 8-bit reference', () => {
    expect([...concatenationUdh(0x2a, 3, 2)]).toEqual([0x05, 0x00, 0x03, 0x2a, 0x03, 0x02]);
  });

  it('sends a single part without UDH', () => {
    const [part, ...rest] = encodeShortMessageParts({ encoding: 'gsm7', parts: ['Hi'] }, 7);
    expect(rest).toEqual([]);
    expect(part).toEqual({ dataCoding: 0, esmClass: 0, shortMessage: Buffer.from([0x48, 0x69]) });
  });

  it('prefixes every part with the UDH, same reference, esm_class 0x40', () => {
    const parts = encodeShortMessageParts(splitSmsIntoParts('a'.repeat(200)), 0x99);
    expect(parts).toHaveLength(2);
    parts.forEach((part, i) => {
      expect(part.esmClass).toBe(0x40);
      expect(part.dataCoding).toBe(0);
      expect([...part.shortMessage.subarray(0, 6)]).toEqual([0x05, 0x00, 0x03, 0x99, 0x02, i + 1]);
    });
    expect(parts[0].shortMessage.length).toBe(6 + 153);
    expect(parts[1].shortMessage.length).toBe(6 + 47);
  });

  it('uses data_coding 8 for UCS-2', () => {
    const parts = encodeShortMessageParts(splitSmsIntoParts('Привет'), 1);
    expect(parts[0].dataCoding).toBe(8);
    expect(parts[0].shortMessage.length).toBe(12);
  });
});
