import { parseSimCallerVoice } from '../src/sip/sim-caller-voice';

describe('the voice a test call asks the simulator phone for', () => {
  it('takes every voice of the evaluation set', () => {
    for (const value of ['flite:kal', 'flite:awb', 'flite:rms', 'flite:slt', 'espeak:en-us', 'espeak:en-gb', 'espeak:en-us+f3', 'espeak:en-gb-scotland+m3']) {
      const [engine, voice] = value.split(':');
      expect(parseSimCallerVoice(value)).toEqual({ engine, voice });
    }
  });

  it('refuses what is no voice, or could break a header or a command line', () => {
    for (const value of ['', 'flite', 'flite:bob', 'espeak:-w/tmp/x', 'espeak:en-us\r\nX-Evil: 1', 'espeak:EN', 'say:en-us', 'flite:kal:x', 42, undefined]) {
      expect(parseSimCallerVoice(value)).toBeNull();
    }
  });
});
