import { encodeMulaw } from '@switchboard/telephony';
import { createCallRecorder } from '../src/recording/call-recorder';

const frame = (value: number) => encodeMulaw(new Int16Array(160).fill(value));

describe('call recorder', () => {
  it('puts the callee left and the agent right, on one timeline from the answer', () => {
    let now = 1_000;
    const recorder = createCallRecorder(() => now);
    expect(recorder.finish()).toBeNull(); // never answered
    recorder.start();
    recorder.agentAudio(Buffer.concat([frame(8000), frame(8000)])); // slots 0 and 1
    now += 40;
    recorder.calleeFrame(frame(-4000)); // slot 2
    now += 20;
    const result = recorder.finish()!;
    const wav = result.wav;
    expect(wav.readUInt16LE(22)).toBe(2);
    expect(result.durationSeconds).toBeCloseTo(0.06, 5);
    const sample = (slot: number, channel: number) => wav.readInt16LE(44 + (slot * 160 * 2 + channel) * 2);
    expect(sample(0, 1)).toBeGreaterThan(7000);
    expect(sample(0, 0)).toBe(0);
    expect(sample(2, 0)).toBeLessThan(-3000);
    expect(sample(2, 1)).toBe(0);
  });

  it('takes back the agent frames a barge-in dropped', () => {
    const recorder = createCallRecorder(() => 0);
    recorder.start();
    recorder.agentAudio(Buffer.concat([frame(8000), frame(8000), frame(8000)]));
    recorder.agentDropped(2);
    const wav = recorder.finish()!.wav;
    expect(wav.readUInt32LE(40)).toBe(160 * 2 * 2); // one slot left
  });
});
