import { planDtmfEvent } from '../src/media/dtmf-event.plan';
import { decodeTelephoneEvent, digitOfEvent, encodeTelephoneEvent, eventOfDigit } from '../src/media/telephone-event.codec';
import { createTelephoneEventDetector } from '../src/media/telephone-event.detector';

describe('RFC 4733 telephone events', () => {
  it('maps digits to event codes and back', () => {
    expect([...'0123456789*#ABCD'].map(eventOfDigit)).toEqual([...Array(16).keys()]);
    expect(eventOfDigit('a')).toBe(12);
    expect(eventOfDigit('x')).toBeUndefined();
    expect(eventOfDigit('12')).toBeUndefined();
    expect(digitOfEvent(11)).toBe('#');
    expect(digitOfEvent(16)).toBeUndefined();
  });

  it('encodes event, end bit, volume and duration in 4 bytes', () => {
    const bytes = encodeTelephoneEvent({ event: 5, end: true, volume: 10, duration: 800 });
    expect(bytes.toString('hex')).toBe('058a0320');
    expect(decodeTelephoneEvent(bytes)).toEqual({ event: 5, end: true, volume: 10, duration: 800 });
    expect(decodeTelephoneEvent(Buffer.alloc(3))).toBeUndefined();
  });

  it('plans a marked first packet, growing durations and three identical end packets', () => {
    const plan = planDtmfEvent('5', { toneMs: 100 });
    expect(plan).toHaveLength(8);
    expect(plan.map((p) => p.marker)).toEqual([true, false, false, false, false, false, false, false]);
    const events = plan.map((p) => decodeTelephoneEvent(p.payload));
    expect(events.map((e) => e?.duration)).toEqual([160, 320, 480, 640, 800, 800, 800, 800]);
    expect(events.map((e) => e?.end)).toEqual([false, false, false, false, false, true, true, true]);
    expect(new Set(events.map((e) => e?.event))).toEqual(new Set([5]));
    expect(() => planDtmfEvent('x')).toThrow(RangeError);
  });

  it('reports one digit per event, whichever of its packets arrives first', () => {
    const detector = createTelephoneEventDetector();
    const packets = (digit: string, timestamp: number) =>
      planDtmfEvent(digit).map((p, i) => ({ payloadType: 101, marker: p.marker, sequence: i, timestamp, ssrc: 9, payload: p.payload }));
    const first = packets('1', 1000).map((p) => detector.accept(p));
    expect(first.filter(Boolean)).toEqual(['1']);
    const withoutMarker = packets('1', 5000)
      .slice(1)
      .map((p) => detector.accept(p));
    expect(withoutMarker.filter(Boolean)).toEqual(['1']);
    expect(
      packets('#', 9000)
        .map((p) => detector.accept(p))
        .filter(Boolean),
    ).toEqual(['#']);
  });
});
