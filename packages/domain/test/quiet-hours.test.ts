import { quietDelay, quietDelayInZone } from '../src/quiet-hours';

const at = (iso: string) => Date.parse(iso);
const overnight = { start: '21:00', end: '08:00' };

describe('quietDelayInZone', () => {
  it('waits until the end of a period that crosses midnight', () => {
    // 23:30 in London (GMT in January) is 8 h 30 min before 08:00.
    expect(quietDelayInZone(at('2026-01-10T23:30:00Z'), overnight, 'Europe/London')).toBe(8.5 * 3_600_000);
    // 06:00 local, after midnight: 2 h left.
    expect(quietDelayInZone(at('2026-01-10T06:00:00Z'), overnight, 'Europe/London')).toBe(2 * 3_600_000);
  });

  it('does not wait outside the period, nor at its end', () => {
    expect(quietDelayInZone(at('2026-01-10T12:00:00Z'), overnight, 'Europe/London')).toBe(0);
    expect(quietDelayInZone(at('2026-01-10T08:00:00Z'), overnight, 'Europe/London')).toBe(0);
    expect(quietDelayInZone(at('2026-01-10T21:00:00Z'), overnight, 'Europe/London')).toBe(11 * 3_600_000);
  });

  it('reads the recipient’s local clock', () => {
    // 12:00 UTC is 04:00 in Los Angeles (PST): 4 h until 08:00.
    expect(quietDelayInZone(at('2026-01-10T12:00:00Z'), overnight, 'America/Los_Angeles')).toBe(4 * 3_600_000);
  });

  it('handles a period within one day and an empty one', () => {
    expect(quietDelayInZone(at('2026-01-10T13:15:00Z'), { start: '13:00', end: '14:00' }, 'UTC')).toBe(45 * 60_000);
    expect(quietDelayInZone(at('2026-01-10T13:15:00Z'), { start: '13:00', end: '13:00' }, 'UTC')).toBe(0);
  });
});

describe('quietDelay', () => {
  it('waits until the period has ended in every zone of the number', () => {
    // 07:00 in New York is 04:00 in Los Angeles: 1 h there, 4 h here; the longer wait wins.
    expect(quietDelay(at('2026-01-10T12:00:00Z'), overnight, ['America/New_York', 'America/Los_Angeles'])).toBe(4 * 3_600_000);
  });
});
