import { countSmsSegments, smsEncoding, splitSmsIntoParts } from '../src/sms-segments';
import { costUnits } from '../src/pricing';

const prices = { chat: 1, rcs: 2, sms: 3 };

describe('SMS segments', () => {
  it('keeps a GSM-7 text of 160 characters in one segment and splits 161 into 153 + 8', () => {
    expect(smsEncoding('a'.repeat(160))).toBe('gsm7');
    expect(countSmsSegments('a'.repeat(160))).toBe(1);
    const { parts } = splitSmsIntoParts('a'.repeat(161));
    expect(parts.map((p) => p.length)).toEqual([153, 8]);
  });

  it('counts each extension character as two septets', () => {
    expect(smsEncoding('€^{}[]~|\\')).toBe('gsm7');
    expect(countSmsSegments('€'.repeat(80))).toBe(1);
    expect(countSmsSegments('€'.repeat(81))).toBe(2);
    expect(countSmsSegments(`${'a'.repeat(159)}€`)).toBe(2);
  });

  it('never splits an escape pair across parts', () => {
    const { parts } = splitSmsIntoParts(`${'a'.repeat(152)}€bbbbbbbbbb`);
    expect(parts[0]).toBe('a'.repeat(152));
    expect(parts[1].startsWith('€')).toBe(true);
  });

  it('switches to UCS-2 for any character outside GSM-7: 70 alone, 67 when concatenated', () => {
    expect(smsEncoding('héllo ✓')).toBe('ucs2');
    expect(countSmsSegments('✓'.repeat(70))).toBe(1);
    expect(countSmsSegments('✓'.repeat(71))).toBe(2);
    expect(countSmsSegments('✓'.repeat(134))).toBe(2);
    expect(countSmsSegments('✓'.repeat(135))).toBe(3);
  });

  it('counts an emoji as two UCS-2 units and never splits its surrogate pair', () => {
    expect(countSmsSegments('😀'.repeat(35))).toBe(1);
    expect(countSmsSegments('😀'.repeat(36))).toBe(2);
    const { parts } = splitSmsIntoParts(`a${'😀'.repeat(40)}`);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(67);
    expect(parts.join('')).toBe(`a${'😀'.repeat(40)}`);
  });

  it('prices SMS by parts and other channels per message', () => {
    expect(costUnits('sms', 'a'.repeat(161), prices)).toBe(6);
    expect(costUnits('rcs', 'a'.repeat(500), prices)).toBe(2);
    expect(costUnits('chat', 'a'.repeat(500), prices)).toBe(1);
  });
});
